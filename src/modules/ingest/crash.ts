import type { ExceptionInfo } from './stack'

/** Whether the exception chain was handled: false when any exception says it was not, true when one says it was, null when none says. */
export function handledOf(exceptions: ExceptionInfo[] | undefined): boolean | null {
  const said = (exceptions ?? []).flatMap((e) => (e.handled === undefined ? [] : [e.handled]))
  return said.includes(false) ? false : said.length ? true : null
}
