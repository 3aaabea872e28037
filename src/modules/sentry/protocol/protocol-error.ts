import { AppError } from '../../../http/errors'

/**
 * The only error the Sentry protocol parsers throw: 400 for a malformed body (bad encoding, corrupt or
 * truncated compression, a broken envelope), 413 past a size or count limit. The routes answer it in
 * Sentry's shape (`{"detail": message}`); left uncaught it is still an AppError with its status.
 */
export class SentryProtocolError extends AppError {
  constructor(
    override readonly status: 400 | 413,
    message: string,
  ) {
    super(status, message)
  }
}

export const malformed = (message: string) => new SentryProtocolError(400, message)
export const tooLarge = (message: string) => new SentryProtocolError(413, message)
