import pkg from '../package.json'

/** The server version, from package.json (embedded by the compiler). */
export const VERSION: string = pkg.version
