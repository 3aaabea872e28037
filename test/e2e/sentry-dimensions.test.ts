// Issue 29, items 1 and 5, through the real @sentry/node against the real server: the platform is
// the player's OS (not the SDK's runtime), the runtime is its own field, and the environment is
// stored per occurrence, shown on the evidence, listed as a filter choice and searchable.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, ROOT, startServer, studioOnServer } from '../helpers/server-process'

const SCRIPT = join(ROOT, 'test', 'sentry', 'capture', 'node-dimensions.mjs')

let server: Awaited<ReturnType<typeof startServer>>
let token = ''
let slug = ''
let dsn = ''

const api = async (path: string) => {
  const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, body: await res.json() }
}

/** Runs the game once in `environment`, throwing `error`. */
async function play(environment: string, error: string) {
  const child = Bun.spawn(['node', SCRIPT], { cwd: ROOT, env: { ...process.env, SENTRY_DSN: dsn, SENTRY_ENVIRONMENT: environment, GAME_ERROR: error }, stdout: 'pipe', stderr: 'pipe', timeout: 60_000 })
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  expect(code, stderr).toBe(0)
}

/** The titles the list shows for `q`. */
const titles = async (q: string) => ((await api(`/projects/${slug}/bugs?q=${encodeURIComponent(q)}`)).body.data.bugs as { title: string }[]).map((b) => b.title).sort()

beforeAll(async () => {
  server = await startServer({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  ;({ token, slug } = await studioOnServer(server.url, { email: 'dims@example.com', password: 'sentry-dimensions-1', project: 'Arena Game' }))
  dsn = (await api(`/projects/${slug}`)).body.data.dsn.replace('@localhost:', '@127.0.0.1:')
  await play('production', 'boss arena failed to load')
  await play('staging', 'boss arena failed to load')
  await play('staging', 'staging-only shader missing')
  // Each run flushes before it exits, so its event is stored by then.
  expect(await titles('')).toHaveLength(2)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  removeTempDataDirs()
})

describe('@sentry/node events: platform, runtime and environment (issue 29, items 1 and 5)', () => {
  it("files the player's OS as the platform, so platform:Windows finds the crashes, and the runtime apart as runtime:node", async () => {
    expect(await titles('platform:Windows')).toEqual(['Error: boss arena failed to load', 'Error: staging-only shader missing'])
    expect(await titles('runtime:node')).toEqual(['Error: boss arena failed to load', 'Error: staging-only shader missing'])
    expect(await titles('platform:node')).toEqual([])
    const list = (await api(`/projects/${slug}/bugs?platform=windows&runtime=NODE`)).body.data.bugs as unknown[]
    expect(list).toHaveLength(2)
  })

  it('keeps each occurrence\'s environment and runtime on its evidence', async () => {
    const bug = ((await api(`/projects/${slug}/bugs?q=${encodeURIComponent('"boss arena"')}`)).body.data.bugs as { report_number: number }[])[0]!
    const occurrences = (await api(`/projects/${slug}/bugs/${bug.report_number}/occurrences?order=oldest`)).body.data.occurrences as Record<string, string>[]
    expect(occurrences.map((o) => [o.environment, o.platform])).toEqual([
      ['production', 'Windows'],
      ['staging', 'Windows'],
    ])
    expect(occurrences[0]!.runtime).toMatch(/^node v\d+\./)
    expect(occurrences[0]!.os_info).toBe('Windows 10.0.19045')
  })

  it('filters by environment, in q and as a parameter, and lists the environments as filter choices', async () => {
    expect(await titles('environment:production')).toEqual(['Error: boss arena failed to load'])
    expect(await titles('environment:staging')).toEqual(['Error: boss arena failed to load', 'Error: staging-only shader missing'])
    expect(await titles('environment:qa')).toEqual([])
    expect(((await api(`/projects/${slug}/bugs?environment=Production`)).body.data.bugs as unknown[]).length).toBe(1)
    const facets = (await api(`/projects/${slug}/bugs/facets`)).body.data
    expect(facets).toMatchObject({ platforms: ['Windows'], runtimes: ['node'], environments: ['production', 'staging'] })
  })
})

describe('@sentry/node tags (issue 29, item 6)', () => {
  it('searches the tags the game set as tag:key=value, and lists them with counts on the report', async () => {
    expect(await titles('tag:map=caves')).toEqual(['Error: staging-only shader missing'])
    expect(await titles('tag:platform=Windows')).toEqual(['Error: boss arena failed to load', 'Error: staging-only shader missing'])
    expect(await titles('tag:map=forest')).toEqual([])
    const bug = ((await api(`/projects/${slug}/bugs?q=${encodeURIComponent('tag:map=arena')}`)).body.data.bugs as { report_number: number }[])[0]!
    const facet = (await api(`/projects/${slug}/bugs/${bug.report_number}/tags`)).body.data.tags as { key: string; count: number; values: unknown[] }[]
    expect(facet.find((t) => t.key === 'map')).toEqual({ key: 'map', count: 2, values: [{ value: 'arena', count: 2 }] })
    expect(facet.find((t) => t.key === 'platform')).toEqual({ key: 'platform', count: 2, values: [{ value: 'Windows', count: 2 }] })
  })
})
