import { readFileSync } from 'node:fs'

/** The bytes of a public minidump fixture (see test/sentry/fixtures/minidumps/README.md). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/minidumps/${name}`, import.meta.url)))
}

/** The fixtures of real crashes, with the platform each comes from. */
export const REAL_DUMPS = ['test.dmp', 'windows-mini.dmp', 'tiny-exe-fastfail.dmp', 'linux-mini.dmp', 'crash_linux.dmp', 'crash_macos.dmp'] as const
