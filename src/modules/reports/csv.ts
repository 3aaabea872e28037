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

/**
 * Records of an RFC 4180 document (quoted cells with doubled quotes and line breaks, CRLF or LF),
 * at most `maxRecords` (null past it). A leading byte-order mark is dropped.
 */
export function parseCsv(text: string, maxRecords: number): string[][] | null {
  const records: string[][] = []
  let record: string[] = []
  let cell = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const endRecord = () => {
    record.push(cell)
    cell = ''
    if (record.length > 1 || record[0] !== '') records.push(record)
    record = []
    return records.length <= maxRecords
  }
  for (; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c !== '"') cell += c
      else if (text[i + 1] === '"') (cell += '"'), i++
      else quoted = false
    } else if (c === '"' && cell === '') quoted = true
    else if (c === ',') record.push(cell), (cell = '')
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      if (!endRecord()) return null
    } else cell += c
  }
  if (cell !== '' || record.length) if (!endRecord()) return null
  return records
}

/** A cell as exported by `csvCell`: the `'` that guards a formula-like text is taken off again. */
export const uncsvCell = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell)
