/** The formats a debug file is recognised as; only `breakpad` (and `source_bundle`, by its own route) symbolicate today. */
export type DebugFileKind = 'breakpad' | 'elf' | 'pe' | 'pdb' | 'macho' | 'wasm' | 'portable_pdb' | 'source_bundle' | 'unknown'

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))
const u32 = (b: Uint8Array, big: boolean) => (b.length < 4 ? -1 : new DataView(b.buffer, b.byteOffset, 4).getUint32(0, !big))

/** The format of a debug file from its first bytes (magic numbers). */
export function debugFileKindOf(head: Uint8Array): DebugFileKind {
  if (ascii(head, 0, 7) === 'MODULE ') return 'breakpad'
  if (head[0] === 0x7f && ascii(head, 1, 4) === 'ELF') return 'elf'
  if (ascii(head, 0, 24) === 'Microsoft C/C++ MSF 7.00') return 'pdb'
  if (ascii(head, 0, 4) === 'BSJB') return 'portable_pdb'
  if (ascii(head, 0, 4) === '\0asm') return 'wasm'
  if (ascii(head, 0, 4) === 'SYSB' || ascii(head, 0, 2) === 'PK') return 'source_bundle'
  if (ascii(head, 0, 2) === 'MZ') return 'pe'
  const magic = u32(head, true)
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic)) return 'macho'
  return 'unknown'
}

/** The `detail` sentry-cli prints for a file stored but not used yet (CONTRACT.md: never a failure of the build). */
export const NOT_USED_YET = 'stored, not used for symbolication yet'
