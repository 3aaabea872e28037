/** Why a crash upload was refused; `too_large` is the only one that is not the client's malformed data. */
export type UnrealCrashReason = 'empty' | 'bad_compression' | 'too_large' | 'bad_container' | 'bad_context'

/**
 * The only error the Unreal crash parser throws: anything wrong with an upload (it comes from anyone)
 * ends here with a message that says what, never as another exception. `status` is the HTTP answer
 * the route gives: 413 past the decoded-size cap, 400 for everything else.
 */
export class UnrealCrashError extends Error {
  override readonly name = 'UnrealCrashError'
  readonly status: 400 | 413

  constructor(
    readonly reason: UnrealCrashReason,
    message: string,
  ) {
    super(message)
    this.status = reason === 'too_large' ? 413 : 400
  }
}
