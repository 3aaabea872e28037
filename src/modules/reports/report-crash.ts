/**
 * A crash, as opposed to an error (README "Analytics" § Definitions): the game stopped or the SDK
 * caught the exception by itself. That is a `fatal` level, an exception no handler caught (Sentry's
 * `mechanism.handled: false`), or a submission its client files as a crash (category `crash`: a
 * minidump, an Unreal crash, a crashed session's event, an SDK report the game marks so). A handled
 * exception at level `error` is an error: it is counted, grouped and shown, but not as a crash.
 */
export function isCrash(s: { level?: string | null; handled?: boolean | null; category?: string | null }): boolean {
  return s.level === 'fatal' || s.handled === false || s.category === 'crash'
}
