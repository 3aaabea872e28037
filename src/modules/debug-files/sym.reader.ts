import { parseSymLine } from './sym-line.parser'
import { forEachLine, forEachLineSync, type SymSource } from './sym-lines'
import { SymError } from './sym.errors'
import type { SymRecord } from './sym.types'

/** Lines read at most: a 2 GB `.sym` has about 50 million; more is a hostile file. */
export const MAX_SYM_LINES = 80_000_000
/** Problems remembered by line number; the rest are only counted. */
const MAX_PROBLEMS = 20

/** What reading a `.sym` found besides its records. */
export interface SymReadReport {
  lines: number
  /** Records skipped as malformed (or overlong), and the first few with their line numbers. */
  skipped: number
  problems: string[]
}

/**
 * Reads records line by line and hands each to `onRecord`. The first line must be MODULE, else the
 * file is not a `.sym` (SymError); later malformed lines are skipped and reported, so a truncated
 * or partly garbled file still gives what it holds.
 */
class SymReader {
  readonly report: SymReadReport = { lines: 0, skipped: 0, problems: [] }

  constructor(private readonly onRecord: (record: SymRecord) => void) {}

  line = (line: string | null): void => {
    const n = ++this.report.lines
    if (n > MAX_SYM_LINES) throw new SymError(`the file has more than ${MAX_SYM_LINES} lines`)
    const reading = line === null ? { malformed: 'line too long' } : parseSymLine(line)
    if (n === 1 && (reading === null || !('kind' in reading) || reading.kind !== 'module')) {
      throw new SymError('not a Breakpad .sym file: the first line is not a MODULE record')
    }
    if (reading === null) return
    if ('malformed' in reading) return this.skip(n, reading.malformed)
    this.onRecord(reading)
  }

  skip(lineNo: number, why: string): void {
    this.report.skipped++
    if (this.report.problems.length < MAX_PROBLEMS) this.report.problems.push(`line ${lineNo}: ${why}`)
  }

  finish(): SymReadReport {
    if (this.report.lines === 0) throw new SymError('not a Breakpad .sym file: it is empty')
    return this.report
  }
}

/** Reads a `.sym` from bytes, text or a stream, one line at a time, handing each record to `onRecord`. */
export async function readSym(source: SymSource, onRecord: (record: SymRecord, reader: SymReadHooks) => void): Promise<SymReadReport> {
  const reader = new SymReader((r) => onRecord(r, reader))
  await forEachLine(source, reader.line)
  return reader.finish()
}

/** The same for a `.sym` already in memory, synchronously. */
export function readSymSync(source: Uint8Array | string, onRecord: (record: SymRecord, reader: SymReadHooks) => void): SymReadReport {
  const reader = new SymReader((r) => onRecord(r, reader))
  forEachLineSync(source, reader.line)
  return reader.finish()
}

/** What a record consumer may tell the reader: that a well-formed record makes no sense where it is. */
export interface SymReadHooks {
  skip(lineNo: number, why: string): void
  readonly report: SymReadReport
}
