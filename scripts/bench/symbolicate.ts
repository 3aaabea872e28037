// Symbolication timings: building and loading the index of an ~800 KB Breakpad .sym (test_app.sym,
// 44,302 lines), symbolicating a 30-frame stack against it warm, and whole stack walks of the public
// fixture dumps. Each figure is the median of many rounds after a warm-up. Usage: bun scripts/bench/symbolicate.ts
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { walkStack } from '../../src/modules/debug-files/stack-walker'
import { buildSymIndex } from '../../src/modules/debug-files/sym-index.builder'
import { loadSymIndex, type SymIndex } from '../../src/modules/debug-files/sym-index.reader'
import { parseSym } from '../../src/modules/debug-files/sym.parser'
import { hardware } from './lib'

const fixture = (name: string) => {
  const bytes = readFileSync(new URL(`../../test/fixtures/debug-files/${name}`, import.meta.url))
  return new Uint8Array(name.endsWith('.gz') ? gunzipSync(bytes) : bytes)
}

async function median(rounds: number, run: () => unknown): Promise<number> {
  for (let i = 0; i < 5; i++) await run()
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const t = performance.now()
    await run()
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!
}

const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`

const sym = fixture('test_app.sym.gz')
const build = await median(9, () => buildSymIndex(sym))
const { index } = await buildSymIndex(sym)
const load = await median(200, () => loadSymIndex(index))

// 30 frames spread over the module's functions, each looked up by a return address inside it.
const functions = parseSym(sym).functions.filter((f) => f.lines.length > 0)
const stack = Array.from({ length: 30 }, (_, i) => functions[Math.floor((i * functions.length) / 30)]!).map((f) => f.address + f.size - 1)
const warm = loadSymIndex(index)
const thirtyFrames = await median(500, () => stack.map((offset) => warm.lookup(offset)))
const coldThirty = await median(100, () => {
  const fresh = loadSymIndex(index)
  return stack.map((offset) => fresh.lookup(offset))
})

async function indexes(...names: string[]): Promise<(id: string) => SymIndex | null> {
  const byId = new Map<string, SymIndex>()
  for (const name of names) {
    const loaded = loadSymIndex((await buildSymIndex(fixture(name))).index)
    byId.set(loaded.module.debugId!, loaded)
  }
  return (id) => byId.get(id) ?? null
}
const testDmp = new Uint8Array(readFileSync(new URL('../../test/sentry/fixtures/minidumps/test.dmp', import.meta.url)))
const windowsSymbols = await indexes('test_app.sym.gz', 'kernel32.sym.gz')
const walkWindows = await median(200, () => walkStack(testDmp, windowsSymbols))
const overflowDmp = fixture('linux_overflow.dmp')
const linuxSymbols = await indexes('overflow.sym.gz', 'libc-2.13.so.sym.gz')
const walkLinux = await median(200, () => walkStack(overflowDmp, linuxSymbols))

console.log(hardware())
console.log(`test_app.sym: ${sym.length} bytes, ${functions.length} functions with lines; index ${index.length} bytes`)
console.log(`build index (once, at upload):          ${ms(build)}`)
console.log(`load index from bytes:                  ${ms(load)}`)
console.log(`30-frame stack, index loaded (warm):    ${ms(thirtyFrames)}`)
console.log(`30-frame stack, index loaded each time: ${ms(coldThirty)}`)
console.log(`walk test.dmp (x86, STACK WIN, 4 frames, all threads):       ${ms(walkWindows)}`)
console.log(`walk linux_overflow.dmp (amd64, CFI, 9 frames, all threads): ${ms(walkLinux)}`)
