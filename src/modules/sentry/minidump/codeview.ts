import type { ByteView, Location } from './byte-view'
import { CodeView } from './minidump.format'
import { readCString } from './text'

/** What a module's CodeView record identifies: the debug file and its id, and (ELF, Apple) the code id. */
export interface CodeViewInfo {
  kind: 'pdb70' | 'pdb20' | 'elf'
  debugId: string
  /** PDB path for PDB records; null for ELF, whose debug file is the module itself. */
  debugFile: string | null
  /** The ELF build id (hex). */
  buildId: string | null
  /** The PDB 7.0 GUID (upper-case hex): on Apple the Mach-O UUID, which is also the code id. */
  guid: string | null
}

/** ELF build ids are 20 bytes (SHA-1) by default; longer ones are read up to this. */
const MAX_BUILD_ID = 64

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

function hexBytes(b: Uint8Array): string {
  let out = ''
  for (const x of b) out += HEX[x]
  return out
}

/** The order GUID bytes are printed in: data1, data2, data3 are little-endian numbers, data4 is bytes. */
const GUID_ORDER = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15]

/** A GUID as Breakpad prints it, upper-case. */
function guidHex(b: Uint8Array): string {
  let out = ''
  for (const i of GUID_ORDER) out += HEX[b[i]!]
  return out.toUpperCase()
}

/**
 * Reads the record `cv_record` points at: `RSDS` (PDB 7.0: GUID, age, PDB path), `NB10` (PDB 2.0:
 * timestamp signature, age, PDB path) or Breakpad's `BpEL` (the ELF build id, whose first 16
 * bytes read as a GUID with age 0 are the debug id). Other records identify nothing.
 */
export function readCodeView(v: ByteView, loc: Location): CodeViewInfo | null {
  if (loc.size < 4) return null
  const record = v.slice(loc.rva, loc.size, 'CodeView record')
  const signature = v.u32(loc.rva, 'CodeView record')
  if (signature === CodeView.pdb70 && loc.size >= 24) {
    const [guid, age] = [guidHex(record.subarray(4, 20)), v.u32(loc.rva + 20, 'CodeView record')]
    return { kind: 'pdb70', debugId: guid + age.toString(16).toUpperCase(), debugFile: readCString(record.subarray(24)), buildId: null, guid }
  }
  if (signature === CodeView.pdb20 && loc.size >= 16) {
    const [stamp, age] = [v.u32(loc.rva + 8, 'CodeView record'), v.u32(loc.rva + 12, 'CodeView record')]
    return { kind: 'pdb20', debugId: stamp.toString(16).toUpperCase().padStart(8, '0') + age.toString(16).toUpperCase(), debugFile: readCString(record.subarray(16)), buildId: null, guid: null }
  }
  if (signature === CodeView.elf && loc.size > 4) {
    const id = record.subarray(4, 4 + MAX_BUILD_ID)
    const guid = new Uint8Array(16)
    guid.set(id.subarray(0, 16))
    return { kind: 'elf', debugId: `${guidHex(guid)}0`, debugFile: null, buildId: id.some((b) => b !== 0) ? hexBytes(id) : null, guid: null }
  }
  return null
}
