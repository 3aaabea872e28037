// Issue 32, "JavaScript source maps" and "Project scoping", through the real server: a minified build
// uploaded with the real sentry-cli (`sourcemaps inject` + `upload`) maps the frames of Sentry events
// sent to that project at ingest — original file, line, column, function and context — and grouping
// reads the mapped names, so two anonymous minified callbacks become two reports. Another project's
// events naming the same debug id are not mapped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { minifiedBuild, runSentryCli as run, SENTRY_CLI as CLI } from '../helpers/sentry-cli'
import { removeTempDataDirs, startServer, studioOnServer } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

const GAME = `// Save hooks of a tiny game.
export const onEvent = {
  bossDefeated: () => {
    const slot = 'boss'
    throw new Error('save failed: ' + slot.length)
  },
  chestOpened: () => {
    const slot = 'ches'
    throw new Error('save failed: ' + slot.length)
  },
}
`
const originalLine = (needle: string) => GAME.split('\n').findIndex((l) => l.includes(needle)) + 1
/** The original source the description shows under a mapped frame: five lines each side, the frame's line marked. */
const sourceAround = (at: number) =>
  GAME.split('\n').flatMap((code, i) => (Math.abs(i + 1 - at) <= 5 ? [`      ${i + 1} ${i + 1 === at ? '>' : '|'} ${code}`.trimEnd()] : [])).join('\n')

let server: Awaited<ReturnType<typeof startServer>>
let session = ''
let dir = ''
let debugId = ''
/** 1-based line and column of each `throw` in the minified file, in source order. */
let throws: { lineno: number; colno: number }[] = []

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return (await res.json()) as { ok: boolean; data: any }
}

/** A project with its DSN's store URL. */
async function project(name: string) {
  const slug = (await api('POST', '/api/projects', { name })).data.slug as string
  const dsn = new URL((await api('GET', `/api/projects/${slug}`)).data.dsn as string)
  return { slug, store: `${server.url}/api${dsn.pathname}/store/?sentry_key=${dsn.username}` }
}

/** A browser SDK's event thrown at one of the minified `throw`s; `how` picks the map by debug id or by release + URL. */
function event(at: { lineno: number; colno: number }, how: 'debug id' | 'release'): Record<string, unknown> {
  // Uploaded from dist/, the file's URL is `~/game.js`: served at the site's root; by debug id the URL does not matter.
  const absPath = how === 'release' ? 'https://play.example.com/game.js?v=2' : 'https://play.example.com/assets/game.js'
  return {
    platform: 'javascript',
    exception: { values: [{ type: 'Error', value: 'save failed: 4', stacktrace: { frames: [{ abs_path: absPath, filename: absPath, lineno: at.lineno, colno: at.colno, in_app: true }] } }] },
    ...(how === 'debug id' ? { debug_meta: { images: [{ type: 'sourcemap', code_file: absPath, debug_id: debugId }] } } : { release: '2.0.0', dist: 'web' }),
  }
}

async function send(store: string, body: Record<string, unknown>) {
  const res = await fetch(store, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status, await res.clone().text()).toBe(200)
}

const reportsOf = async (slug: string) => (await api('GET', `/api/projects/${slug}/bugs?sort=newest`)).data.bugs as { report_number: number; title: string }[]

beforeAll(async () => {
  server = await startServer({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  session = (await studioOnServer(server.url, { email: 'maps@example.com', password: 'correct-horse-battery', project: 'Unused' })).token
  dir = tempDir('sourcemap-ingest')
  mkdirSync(join(dir, 'src'), { recursive: true })
  writeFileSync(join(dir, 'src', 'game.ts'), GAME)
  const js = await minifiedBuild(join(dir, 'src', 'game.ts'), join(dir, 'dist'))
  const inject = await run([CLI, 'sourcemaps', 'inject', 'dist'], dir, {})
  expect(inject.code, inject.out).toBe(0)
  const minified = readFileSync(js, 'utf8')
  debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(minified)![1]!
  throws = [...minified.split('\n').entries()].flatMap(([i, line]) => [...line.matchAll(/throw/g)].map((m) => ({ lineno: i + 1, colno: m.index! + 1 })))
  expect(throws).toHaveLength(2)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  if (dir) removeTempDir(dir)
  removeTempDataDirs()
})

/** Uploads the build to a project with a token limited to it. */
async function upload(slug: string) {
  const token = (await api('POST', '/api/auth/api-tokens', { name: `CI ${slug}`, scopes: ['debug_files.upload'], project: slug })).data.token as string
  const res = await run([CLI, 'sourcemaps', 'upload', '--org', 'studio', '--project', slug, '--release', '2.0.0', '--dist', 'web', 'dist'], dir, { SENTRY_URL: server.url, SENTRY_AUTH_TOKEN: token })
  expect(res.code, res.out).toBe(0)
}

/** The one occurrence's stack text of each report, by title, oldest report first. */
async function stacks(slug: string) {
  const out: string[] = []
  for (const r of (await reportsOf(slug)).reverse()) {
    const occurrences = (await api('GET', `/api/projects/${slug}/bugs/${r.report_number}/occurrences`)).data.occurrences as { description: string }[]
    out.push(...occurrences.map((o) => o.description.split('--- Stack Trace ---')[1]!.trim()))
  }
  return out
}

describe('JavaScript frames mapped at ingest with the project\'s uploaded source maps (issue 32)', () => {
  it('stores a minified frame with the original file, line, function and source lines: by the debug id in debug_meta, and by release + dist + URL', async () => {
    const p = await project('Web Game')
    await upload(p.slug)
    await send(p.store, event(throws[0]!, 'debug id'))
    await send(p.store, event(throws[1]!, 'release'))
    const boss = originalLine("'boss'") + 1
    const chest = originalLine("'ches'") + 1
    expect(await stacks(p.slug)).toEqual([
      `at bossDefeated (src/game.ts:${boss}:5) [in app]\n${sourceAround(boss)}`,
      `at chestOpened (src/game.ts:${chest}:5) [in app]\n${sourceAround(chest)}`,
    ])
    const culprits = ((await api('GET', `/api/projects/${p.slug}/bugs`)).data.bugs as { culprit: string }[]).map((b) => b.culprit).sort()
    expect(culprits).toEqual(['bossDefeated (game.ts)', 'chestOpened (game.ts)'])
    // Each bundle used counts the crash it mapped, on the "Debug files" list.
    const listed = (await api('GET', `/api/projects/${p.slug}/debug-files`)).data as { kind: string; crashes_symbolicated: number }[]
    expect(listed.find((f) => f.kind === 'source_bundle')?.crashes_symbolicated).toBe(2)
  }, 120_000)

  it('groups on the mapped names: two anonymous minified callbacks with one message are one report before the upload, two after', async () => {
    const p = await project('Grouping Game')
    await send(p.store, event(throws[0]!, 'debug id'))
    await send(p.store, event(throws[1]!, 'debug id'))
    const before = await reportsOf(p.slug)
    expect(before.map((b) => b.title)).toEqual(['Error: save failed: 4'])
    expect((await stacks(p.slug)).every((s) => s.startsWith('at ? (https://play.example.com/assets/game.js:'))).toBe(true)
    await upload(p.slug)
    await send(p.store, event(throws[0]!, 'debug id'))
    await send(p.store, event(throws[1]!, 'debug id'))
    await send(p.store, event(throws[0]!, 'debug id'))
    const after = (await reportsOf(p.slug)).filter((r) => r.report_number !== before[0]!.report_number)
    expect(after).toHaveLength(2)
    const culprits = Object.fromEntries(((await api('GET', `/api/projects/${p.slug}/bugs`)).data.bugs as { culprit: string; occurrences: number; report_number: number }[])
      .filter((b) => b.report_number !== before[0]!.report_number).map((b) => [b.culprit, b.occurrences]))
    expect(culprits).toEqual({ 'bossDefeated (game.ts)': 2, 'chestOpened (game.ts)': 1 })
  }, 120_000)

  it("never maps with another project's bundle: the frames stay as the SDK sent them", async () => {
    const owner = await project('Owner Game')
    await upload(owner.slug)
    const other = await project('Other Game')
    await send(other.store, event(throws[0]!, 'debug id'))
    await send(other.store, event(throws[1]!, 'release'))
    const stack = await stacks(other.slug)
    expect(stack).toHaveLength(2)
    expect(stack.join('\n')).not.toMatch(/game\.ts|bossDefeated|chestOpened/)
    expect(stack.every((s) => /^at \? \(https:\/\/play\.example\.com\/.*game\.js.*:3:\d+\) \[in app\]$/.test(s))).toBe(true)
  }, 120_000)
})
