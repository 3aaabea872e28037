import type { ExceptionInfo } from './stack'

/** Whether the exception chain was handled: false when any exception says it was not, true when one says it was, null when none says. */
export function handledOf(exceptions: ExceptionInfo[] | undefined): boolean | null {
  let said: boolean | null = null
  for (const e of exceptions ?? []) {
    if (e.handled === false) return false
    if (e.handled !== undefined) said = true
  }
  return said
}
