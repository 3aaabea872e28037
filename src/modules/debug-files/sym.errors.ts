/**
 * The error a `.sym` file that cannot be used throws: it does not start with a MODULE line, it is
 * past the record limit, or an index's bytes are not an index. Malformed records inside an
 * otherwise good file are skipped and counted instead.
 */
export class SymError extends Error {
  override name = 'SymError'
}
