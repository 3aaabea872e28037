import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { buildSymIndex } from '../../src/modules/debug-files/sym-index.builder'
import { loadSymIndex, type SymIndex } from '../../src/modules/debug-files/sym-index.reader'

/** The bytes of a fixture of test/fixtures/debug-files (see its README), gunzipped when stored as `.gz`. */
export function debugFixture(name: string): Uint8Array {
  const bytes = readFileSync(new URL(`../fixtures/debug-files/${name}`, import.meta.url))
  return new Uint8Array(name.endsWith('.gz') ? gunzipSync(bytes) : bytes)
}

/** rust-minidump's test.dmp (= Breakpad's minidump2.dmp), kept with the minidump parser's fixtures. */
export function testDmp(): Uint8Array {
  return new Uint8Array(readFileSync(new URL('../sentry/fixtures/minidumps/test.dmp', import.meta.url)))
}

/** Symbol indexes of the given `.sym` fixtures by debug id, as a walker's `symbolsFor`. */
export async function symbolsOf(...names: string[]): Promise<(debugId: string) => SymIndex | null> {
  const indexes = new Map<string, SymIndex>()
  for (const name of names) {
    const index = loadSymIndex((await buildSymIndex(debugFixture(name))).index)
    indexes.set(index.module.debugId!, index)
  }
  return (debugId) => indexes.get(debugId) ?? null
}
