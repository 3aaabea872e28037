/**
 * node:zlib, loaded on first use rather than at import: with the stream modules under it, it costs
 * ~10 ms, which every start-up would pay before the server listens, and only compressed uploads need
 * it (issue 30). Node caches the module: later calls are a lookup.
 */
export const zlib = (): typeof import('node:zlib') => require('node:zlib')
