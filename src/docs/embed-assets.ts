// Imported only by the entry point: makes `bun build --compile` embed the docs bundle,
// so /docs works from the binary with no internet and no node_modules.
import scalarBundle from '@scalar/api-reference/browser/standalone.js' with { type: 'file' }
import { useEmbeddedScalarBundle } from './assets'

useEmbeddedScalarBundle(scalarBundle)
