/** Text normalizations behind log-stack lines and the crash test of reports (README "Analytics" states them). */

const LOG_LINE_MAX = 200

/** The lines of a `--- <name> ---` section of an auto-filed description, or null when absent. */
export function sectionLines(description: string, name: 'Stack Trace' | 'Recent Logs'): string[] | null {
  if (!description.includes('---')) return null
  const m = new RegExp(`---\\s*${name.replace(' ', '\\s*')}\\s*---([\\s\\S]*?)(?=\\n\\s*---\\s*[A-Za-z][A-Za-z ]*---|$)`, 'i').exec(description)
  return m ? m[1]!.split('\n').map((l) => l.trim()).filter(Boolean) : null
}

/**
 * A recent-log line as grouped by /log-stack: a leading `[timestamp]` or time removed, every digit run
 * replaced by `#`, hex addresses by `0x#`, whitespace collapsed, at most 200 characters.
 */
export function normalizeLogLine(line: string): string {
  return line
    .replace(/^\s*\[[^\]]*\d{1,2}:\d{2}[^\]]*\]\s*/, '')
    .replace(/^\s*\d{1,4}[-/:.]\d{1,2}[-/:.]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*/, '')
    .replace(/0x[0-9a-f]+/gi, '0x#')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, LOG_LINE_MAX)
}

/** A report counts as a crash or error report when its category is `crash` or it carries an error type (a crash itself is an occurrence's: reports/report-crash.ts). */
export const isCrashReport = (r: { category: string; errorType: string }): boolean => r.category === 'crash' || r.errorType !== ''
