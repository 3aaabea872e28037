import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { MAX_CONTAINER_FILES, unpackContainer } from '../../../src/modules/sentry/unreal/unreal-container'
import { UnrealCrashError } from '../../../src/modules/sentry/unreal/unreal-errors'
import { fixture, writeContainer, type PackedFile } from './container-writer'

const text = (s: string) => new TextEncoder().encode(s)
const files: PackedFile[] = [
  { name: 'CrashContext.runtime-xml', bytes: text('<FGenericCrashContext/>') },
  { name: 'Game.log', bytes: text('Log file open') },
]
const le32 = (value: number) => {
  const b = new Uint8Array(4)
  new DataView(b.buffer).setInt32(0, value, true)
  return b
}
/** The container with four bytes at `offset` replaced by `value`. */
const patched = (data: Uint8Array, offset: number, value: number) => {
  const copy = data.slice()
  copy.set(le32(value), offset)
  return copy
}
/** The message unpackContainer refuses `data` with (fails the test if it accepts it or throws anything else). */
const refusal = (data: Uint8Array): string => {
  try {
    unpackContainer(data)
  } catch (error) {
    expect(error).toBeInstanceOf(UnrealCrashError)
    expect(error).toMatchObject({ reason: 'bad_container', status: 400 })
    return (error as Error).message
  }
  throw new Error('the container was accepted')
}

// CR1 offsets: 'CR1' (3), directory name (4 + 260), file name (4 + 260), size (4), count (4) = 539; then file 0's index, name length.
const CR1_COUNT = 3 + 264 + 264 + 4
const CR1_FIRST_FILE = CR1_COUNT + 4
const CR1_FIRST_LENGTH = CR1_FIRST_FILE + 4 + 264

describe('unpackContainer', () => {
  it('reads both layouts of the same files alike', () => {
    for (const layout of ['CR1', 'legacy'] as const) {
      const container = unpackContainer(writeContainer(files, { layout, directoryName: 'UECC-Windows-AB_0000' }))
      expect(container.layout).toBe(layout)
      expect(container.directoryName).toBe('UECC-Windows-AB_0000')
      expect(container.fileName).toBe('UECC-Windows-AB_0000.ue4crash')
      expect(container.files.map((f) => [f.index, f.name, new TextDecoder().decode(f.bytes), f.kind])).toEqual([
        [0, 'CrashContext.runtime-xml', '<FGenericCrashContext/>', 'context'],
        [1, 'Game.log', 'Log file open', 'log'],
      ])
    }
  })

  it('accepts names longer than the 260-character padding, as Unreal writes them, up to 260 characters', () => {
    const name = `${'a'.repeat(256)}.log`
    expect(unpackContainer(writeContainer([{ name, bytes: text('x') }])).files[0]!.name).toBe(name)
  })

  it('reads a name up to its first NUL, as a C string (the rest is padding)', () => {
    expect(unpackContainer(writeContainer([{ name: 'Game.log\u0000\u00ffjunk', bytes: text('x') }])).files[0]!.name).toBe('Game.log')
  })

  it('accepts an empty file and an empty container', () => {
    expect(unpackContainer(writeContainer([{ name: 'empty.txt', bytes: new Uint8Array(0) }])).files[0]!.bytes.length).toBe(0)
    expect(unpackContainer(writeContainer([], { layout: 'legacy' })).files).toEqual([])
  })

  it('refuses a container cut anywhere, saying where it ends', () => {
    const whole = writeContainer(files)
    for (const length of [0, 2, 3, 100, CR1_COUNT + 2, CR1_FIRST_LENGTH + 2, whole.length - 1]) {
      expect(refusal(whole.subarray(0, length))).toMatch(/ends inside|only \d+ bytes|claims \d+ files but has only/)
    }
    expect(refusal(writeContainer(files).subarray(0, CR1_FIRST_LENGTH + 10))).toBe(
      `the crash container ends inside file 0's data (needs 23 bytes at offset ${CR1_FIRST_LENGTH + 4}, 6 left)`,
    )
  })

  it('refuses lengths that run past the end, and negative lengths', () => {
    const whole = writeContainer(files)
    expect(refusal(patched(whole, CR1_FIRST_LENGTH, 1_000_000))).toMatch(/^the crash container ends inside file 0's data \(needs 1000000 bytes/)
    expect(refusal(patched(whole, CR1_FIRST_LENGTH, -1))).toBe("file 0's data has a negative length (-1)")
    expect(refusal(patched(whole, CR1_FIRST_FILE + 4, 0x7fffffff))).toBe(`file 0's name is ${0x7fffffff} bytes long (at most 1024)`)
    expect(refusal(patched(whole, 3, -5))).toBe('the directory name has a negative length (-5)')
  })

  it('refuses absurd file counts before reading any file', () => {
    const whole = writeContainer(files)
    expect(refusal(patched(whole, CR1_COUNT, MAX_CONTAINER_FILES + 1))).toBe('the crash container claims 101 files (at most 100 are accepted)')
    expect(refusal(patched(whole, CR1_COUNT, -1))).toBe('the crash container claims -1 files (at most 100 are accepted)')
    expect(refusal(patched(whole, CR1_COUNT, 99))).toMatch(/^the crash container claims 99 files but has only \d+ bytes left$/)
    // symbolic's test_invalid_file_count: a legacy header alone with the count 0x40ffffff.
    const header = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x40])
    expect(refusal(header)).toBe(`the crash container claims ${0x40ffffff} files (at most 100 are accepted)`)
  })

  it('refuses bytes left over after the last file, in both layouts', () => {
    for (const layout of ['CR1', 'legacy'] as const) {
      const whole = writeContainer(files, { layout })
      const padded = new Uint8Array(whole.length + 4)
      padded.set(whole)
      if (layout === 'legacy') padded.set(whole.subarray(whole.length - 4), whole.length) // keep the count last
      expect(refusal(padded)).toMatch(/^the crash container (has 4 bytes after its last file|ends inside)/)
    }
  })

  it('refuses a file name that is a path or not a plain name, naming it', () => {
    for (const name of ['../escape.txt', '..', '.', 'a/b.log', 'C:\\Windows\\win.ini', 'bad\u0001name', '']) {
      expect(refusal(writeContainer([{ name, bytes: text('x') }]))).toBe(`file 0 has the name ${JSON.stringify(name)}, which is not a plain file name`)
    }
    expect(refusal(writeContainer([{ name: 'x'.repeat(261), bytes: text('x') }]))).toMatch(/^file 0 has the name "x{60}", which is not a plain file name$/)
    expect(refusal(writeContainer([{ name: '\u0001'.repeat(100), bytes: text('x') }]))).toMatch(/^file 0 has the name "(\\u0001){16}\\u0, which is not a plain file name$/)
  })

  it('reads the real fixture container as symbolic does', () => {
    const decoded = new Uint8Array(inflateSync(fixture('unreal_crash')))
    expect(decoded.length).toBe(440_752)
    expect(unpackContainer(decoded).files.map((f) => f.bytes.length)).toEqual([6545, 204, 21_143, 410_700])
  })
})
