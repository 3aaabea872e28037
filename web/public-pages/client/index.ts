// The public pages' one script (served as /public-assets/vote.<hash>.js): vote buttons everywhere,
// suggestions on the report form. Every page works without it.
import './vote'
import './suggest'
