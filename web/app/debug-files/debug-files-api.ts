// The "Debug files" screen's types, from the server's response schemas.
import type { DebugFileResponse } from '../../../src/docs/responses/debug-files'

export type DebugFile = DebugFileResponse

/** How the screen names a kind of upload. */
export const KIND_LABELS: Record<string, string> = {
  breakpad: 'Breakpad symbols',
  source_bundle: 'Source maps',
  elf: 'ELF',
  pe: 'PE (exe/dll)',
  pdb: 'PDB',
  macho: 'Mach-O',
  wasm: 'WebAssembly',
  portable_pdb: 'Portable PDB',
  unknown: 'Unknown',
}
