import { AppError } from '../../http/errors'

/**
 * A bundle that cannot be read as sentry-cli writes it (not a zip, a lying size, a manifest naming a
 * file it does not hold, an entry past the limits). Status 400: the upload is at fault, and the
 * assemble route turns the message into its `detail`.
 */
export class ArtifactBundleError extends AppError {
  constructor(message: string) {
    super(400, `artifact bundle: ${message}`)
  }
}
