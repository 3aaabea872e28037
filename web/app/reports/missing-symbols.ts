/** A module of a native crash's stack that its project has no symbols for, as the minidump metadata lists it. */
export interface MissingModule {
  module: string
  debug_id: string
  debug_file: string | null
}

const isMissingModule = (v: unknown): v is MissingModule => {
  const m = v as Partial<MissingModule> | null
  return typeof m === 'object' && m !== null && typeof m.module === 'string' && typeof m.debug_id === 'string' && (m.debug_file === null || m.debug_file === undefined || typeof m.debug_file === 'string')
}

/** The modules an occurrence's metadata lists under `minidump.missing_symbols`, or none. */
export function missingSymbolsOf(metadata: unknown): MissingModule[] {
  const list = (metadata as { minidump?: { missing_symbols?: unknown } } | null)?.minidump?.missing_symbols
  return Array.isArray(list) ? list.filter(isMissingModule) : []
}

/** The file dump_syms writes for a module: `c:\build\game.pdb` → `game.sym`, `/usr/lib/libgame.so` → `libgame.so.sym`. */
export function symFileOf(m: MissingModule): string {
  const base = (m.debug_file || m.module).split(/[\\/]/).pop() || m.module
  return `${base.replace(/\.pdb$/i, '')}.sym`
}

/** The commands that upload the missing symbols to this project, with this server's address. */
export function uploadCommand(slug: string, missing: MissingModule[], origin: string): string {
  return [
    `export SENTRY_URL=${origin}`,
    'export SENTRY_AUTH_TOKEN=glb_…   # Your account → API tokens, scope debug_files.upload',
    `sentry-cli debug-files upload --org any --project ${slug} <folder with ${[...new Set(missing.map(symFileOf))].join(', ')}>`,
  ].join('\n')
}
