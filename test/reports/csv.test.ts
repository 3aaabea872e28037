import { describe, expect, it } from 'vitest'
import { csvCell, csvRow } from '../../src/modules/reports/csv'

/** A minimal RFC 4180 reader, to prove what we write reads back as the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(cell)
      cell = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += c
  }
  return rows
}

describe('csvCell', () => {
  it.each([
    ['plain text', 'Crash on load', 'Crash on load'],
    ['comma', 'a, b', '"a, b"'],
    ['quote', 'say "hi"', '"say ""hi"""'],
    ['LF', 'line1\nline2', '"line1\nline2"'],
    ['CR', 'a\rb', '"a\rb"'],
    ['CRLF', 'a\r\nb', '"a\r\nb"'],
    ['formula =', '=HYPERLINK("http://evil","x")', '"\'=HYPERLINK(""http://evil"",""x"")"'],
    ['formula +', '+1+2', "'+1+2"],
    ['formula -', '-2+3', "'-2+3"],
    ['formula @', '@SUM(A1)', "'@SUM(A1)"],
    ['leading tab', '\t=1', "'\t=1"],
    ['equals later is fine', 'a=b', 'a=b'],
    ['empty', '', ''],
    ['null', null, ''],
    ['number', 42, '42'],
    ['negative number is not a formula', -3, '-3'],
    ['boolean', true, 'true'],
    ['unicode', 'Café 🎮', 'Café 🎮'],
  ])('%s', (_name, value, expected) => {
    expect(csvCell(value as never)).toBe(expected)
  })
})

describe('csvRow', () => {
  it('ends with CRLF and reads back cell for cell', () => {
    const cells = ['1', 'Title, with comma', 'multi\nline "quoted"', '', 'x']
    const text = csvRow(cells) + csvRow(['2', 'b', 'c', 'd', 'e'])
    expect(text.endsWith('\r\n')).toBe(true)
    expect(parseCsv(text)).toEqual([cells, ['2', 'b', 'c', 'd', 'e']])
  })
})
