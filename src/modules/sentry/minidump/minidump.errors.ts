/**
 * The only error the minidump parser throws: the upload is not a minidump it can read (wrong
 * signature, truncated, a pointer outside the file, a count that cannot fit). The route answers it
 * with 400; any other exception escaping the parser is a bug.
 */
export class MinidumpError extends Error {
  override name = 'MinidumpError'
}
