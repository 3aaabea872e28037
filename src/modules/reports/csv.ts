/**
 * One CSV cell per RFC 4180: quoted when it holds a comma, a quote, CR or LF, with quotes doubled.
 * Text cells starting with = + - @ (or a tab/CR, which spreadsheets skip before reading a formula)
 * get a leading `'`, so a report title like `=HYPERLINK(…)` opens as text, never as a formula.
 * Numbers are written as they are (a negative count is not a formula).
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return String(value)
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV record with its CRLF line ending. */
export const csvRow = (cells: readonly (string | number | boolean | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`
