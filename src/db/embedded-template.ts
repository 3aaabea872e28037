// Loaded only inside the compiled binary (database-template.ts checks Bun.isStandaloneExecutable): the
// database template scripts/build.ts writes into dist/db-template/ becomes a file embedded in the executable.
import template from '../../dist/db-template/glitchbox.dbtemplate' with { type: 'file' }

/** Path of the embedded database template inside the binary. */
export const DATABASE_TEMPLATE: string = template
