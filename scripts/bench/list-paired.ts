/**
 * The report list of two checkouts compared in pairs (issue 30: list p95 within 10% of the commit a
 * change starts from). Each checkout's own `reports-list.ts --data DIR --serve` runs side by side.
 * In each of --rounds rounds (both processes started afresh), for every shape both warm up, then
 * answer --iterations requests each in blocks of --block, the two taking turns block by block (who
 * goes first alternating), so drift on the machine (one run's p50 moved by 2x between runs on the
 * 2-core VM) falls on both alike, while each block runs warm, back to back, as one series of
 * reports-list.ts does. Times are each process's own `app.handle` and body; the driver's HTTP round
 * trip is not counted.
 *
 *   bun scripts/bench/list-paired.ts BEFORE_CHECKOUT BEFORE_DATA AFTER_CHECKOUT AFTER_DATA [--rounds 4] [--iterations 1000] [--block 50] [--block-warmup 5] [--warmup 50] [--limit 10] [-- reports-list options: --skip 'TEXT|TEXT' …]
 *
 * Each data directory is one that checkout seeded (`reports-list.ts --keep`); a checkout needs a
 * reports-list.ts with --serve. Prints a Markdown table: p50 and p95 per shape over every round's
 * requests together, and their change, marking changes over --limit percent.
 */
import { spawn, type Subprocess } from 'bun'
import { join } from 'node:path'
import { quantile } from './lib'

const dashDash = process.argv.indexOf('--')
const own = dashDash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashDash)
const passed = dashDash === -1 ? [] : process.argv.slice(dashDash + 1)
const option = (name: string, fallback: number) => {
  const i = own.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(own[i + 1])
}
const positional = own.filter((a, i) => !a.startsWith('--') && !own[i - 1]?.startsWith('--'))
if (positional.length !== 4) throw new Error('usage: bun scripts/bench/list-paired.ts BEFORE_CHECKOUT BEFORE_DATA AFTER_CHECKOUT AFTER_DATA [--rounds N] [--iterations N] [--block N] [--block-warmup N] [--warmup N] [--limit PCT] [-- reports-list options]')
const [beforeCheckout, beforeData, afterCheckout, afterData] = positional as [string, string, string, string]
const ITERATIONS = option('iterations', 1000)
const WARMUP = option('warmup', 50)
const BLOCK = option('block', 50)
const ROUNDS = option('rounds', 4)
// Untimed requests before each block: the first after the other process ran finds the caches cold,
// and one in 50 is already the p95.
const BLOCK_WARMUP = option('block-warmup', 5)
const LIMIT = option('limit', 10)

interface Side {
  name: string
  process: Subprocess<'ignore', 'pipe', 'inherit'>
  base: string
}

/** Starts a checkout's list in --serve mode on its data directory and waits for its port. */
async function start(name: string, checkout: string, data: string): Promise<Side> {
  const child = spawn([join(checkout, 'node_modules/.bin/bun'), 'scripts/bench/reports-list.ts', '--data', data, '--serve', ...passed], {
    cwd: checkout,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const decoder = new TextDecoder()
  let seen = ''
  for await (const chunk of child.stdout) {
    seen += decoder.decode(chunk, { stream: true })
    const port = /serving on (\d+)/.exec(seen)?.[1]
    if (port) return { name, process: child, base: `http://127.0.0.1:${port}` }
  }
  throw new Error(`${name} (${checkout}) stopped before serving:\n${seen}`)
}

const ask = async (side: Side, path: string) => {
  const res = await fetch(`${side.base}${path}`)
  if (!res.ok) throw new Error(`${side.name} ${path} → ${res.status} ${await res.text()}`)
  return res.json()
}

const change = (a: number, b: number) => ((b - a) / a) * 100
const signed = (pct: number) => `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`

// Each round starts both checkouts afresh: a process's JIT and heap layout move a shape's p50 by up
// to 50% for the process's whole life, so one pair of processes decides little.
const pooled = new Map<string, { before: number[]; after: number[] }>()
for (let round = 0; round < ROUNDS; round++) {
  const before = await start('before', beforeCheckout, beforeData)
  const after = await start('after', afterCheckout, afterData)
  try {
    const beforeShapes = (await ask(before, '/shapes')) as string[]
    const afterShapes = (await ask(after, '/shapes')) as string[]
    for (const [i, shape] of beforeShapes.entries()) {
      const j = afterShapes.indexOf(shape)
      if (j === -1) continue
      await ask(before, `/time/${i}/${WARMUP}`)
      await ask(after, `/time/${j}/${WARMUP}`)
      await Promise.all([ask(before, '/gc'), ask(after, '/gc')])
      const samples = pooled.get(shape) ?? { before: [], after: [] }
      pooled.set(shape, samples)
      for (let k = 0; k * BLOCK < ITERATIONS; k++) {
        const n = Math.min(BLOCK, ITERATIONS - k * BLOCK)
        const timeBefore = async () => samples.before.push(...((await ask(before, `/time/${i}/${n}/${BLOCK_WARMUP}`)) as number[]))
        const timeAfter = async () => samples.after.push(...((await ask(after, `/time/${j}/${n}/${BLOCK_WARMUP}`)) as number[]))
        // Who goes first alternates by block and by round.
        if ((k + round) % 2) await timeAfter().then(timeBefore)
        else await timeBefore().then(timeAfter)
      }
    }
  } finally {
    before.process.kill()
    after.process.kill()
    await Promise.all([before.process.exited, after.process.exited])
  }
  console.error(`round ${round + 1} of ${ROUNDS} done`)
}

console.log(`${ROUNDS} rounds of ${ITERATIONS} requests a shape each, in turns of ${BLOCK} (${BLOCK_WARMUP} untimed first), after ${WARMUP} warm-up requests; app ms; before ${beforeCheckout}, after ${afterCheckout}`)
console.log('| shape | before p50 / p95 | after p50 / p95 | p50 | p95 |')
console.log('|---|---|---|---|---|')
let over = 0
for (const [shape, { before, after }] of pooled) {
  const [b50, b95] = [0.5, 0.95].map((q) => quantile(before.sort((x, y) => x - y), q)) as [number, number]
  const [a50, a95] = [0.5, 0.95].map((q) => quantile(after.sort((x, y) => x - y), q)) as [number, number]
  const p50 = change(b50, a50)
  const p95 = change(b95, a95)
  if (p50 > LIMIT || p95 > LIMIT) over++
  const mark = (pct: number) => (pct > LIMIT ? ` **over ${LIMIT}%**` : '')
  console.log(`| ${shape} | ${b50.toFixed(2)} / ${b95.toFixed(2)} | ${a50.toFixed(2)} / ${a95.toFixed(2)} | ${signed(p50)}${mark(p50)} | ${signed(p95)}${mark(p95)} |`)
}
console.log(`\n${over} shape(s) over ${LIMIT}% at p50 or p95`)
