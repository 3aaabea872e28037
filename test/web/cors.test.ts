import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'

type T = ReturnType<typeof createTestApp>
const GAME = 'https://mygame.example'

describe('CORS', () => {
  let t: T
  let apiKey: string
  let slug: string
  beforeAll(async () => {
    t = createTestApp()
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    apiKey = p.apiKey
    slug = p.slug
  })
  afterAll(() => t.close())

  const open = [
    ['POST', '/api/bugs/submit'],
    ['POST', '/api/v1/bugs/submit'],
    ['POST', '/api/bugs/3f9c1d2e-0000-0000-0000-000000000000/attachments'],
    ['GET', '/api/bugs/settings'],
    ['POST', '/api/sessions/start'],
    ['POST', '/api/sessions/end'],
    ['POST', '/api/events/track'],
    ['POST', '/api/events/track/batch'],
    ['POST', '/api/perf/snapshot'],
    ['POST', '/api/session-replays'],
    ['GET', '/api/tracker/some-game'],
    ['GET', '/api/tracker/some-game/bugs/4'],
    ['POST', '/api/tracker/some-game/bugs/4/vote'],
    ['GET', '/api/roadmap/some-game'],
    ['POST', '/api/roadmap/some-game/bugs/4/vote'],
    ['GET', '/api/branding/some-game'],
    ['GET', '/api/projects/some-game/changelog'],
    ['GET', '/api/files/abc/def.png'],
    ['GET', '/api/maintenance/active'],
  ] as const

  it.each(open)('answers the preflight of %s %s from any origin, without credentials', async (method, path) => {
    const res = await t.request('OPTIONS', path, {
      headers: { origin: GAME, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-api-key' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain(method)
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase()
    expect(allowed).toContain('content-type')
    expect(allowed).toContain('x-api-key')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('answers an SDK submit from another origin with Allow-Origin *, on success and on errors', async () => {
    const ok = await t.request('POST', '/api/bugs/submit', { apiKey, headers: { origin: GAME }, body: { title: 'Falls through floor', description: 'Level 2' } })
    expect(ok.status).toBe(201)
    expect(ok.headers.get('access-control-allow-origin')).toBe('*')
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull()
    const bad = await t.request('POST', '/api/bugs/submit', { apiKey: 'sk_live_nope', headers: { origin: GAME }, body: { title: 'x', description: 'y' } })
    expect(bad.status).toBe(401)
    expect(bad.headers.get('access-control-allow-origin')).toBe('*')
    const invalid = await t.request('POST', '/api/bugs/submit', { apiKey, headers: { origin: GAME }, body: {} })
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers public reads with Allow-Origin * (the changelog read, not its team write)', async () => {
    const log = await t.request('GET', `/api/projects/${slug}/changelog`, { headers: { origin: GAME } })
    expect(log.headers.get('access-control-allow-origin')).toBe('*')
    const pre = await t.request('OPTIONS', `/api/projects/${slug}/changelog`, { headers: { origin: GAME, 'access-control-request-method': 'POST' } })
    expect(pre.headers.get('access-control-allow-methods')).not.toContain('POST')
    const write = await t.request('POST', `/api/projects/${slug}/changelog`, { headers: { origin: GAME }, body: {} })
    expect(write.status).toBe(401)
    expect(write.headers.get('access-control-allow-origin')).toBeNull()
    expect((await t.request('GET', '/api/maintenance/active', { headers: { origin: GAME } })).headers.get('access-control-allow-origin')).toBe('*')
  })

  it('keeps the rate-limit answer readable cross-origin', async () => {
    const s = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '1' } })
    try {
      await s.request('GET', '/api/tracker/x', { ip: '10.9.9.9', headers: { origin: GAME } })
      const limited = await s.request('GET', '/api/tracker/x', { ip: '10.9.9.9', headers: { origin: GAME } })
      expect(limited.status).toBe(429)
      expect(limited.headers.get('access-control-allow-origin')).toBe('*')
      expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After')
    } finally {
      s.close()
    }
  })

  const team = [
    ['GET', '/api/projects'],
    ['POST', '/api/projects'],
    ['GET', '/api/auth/me'],
    ['POST', '/api/auth/login'],
    ['GET', '/api/projects/some-game/bugs'],
    ['PATCH', '/api/projects/some-game/bugs/1'],
  ] as const

  it.each(team)('sends no CORS header on the team route %s %s, preflight or not', async (method, path) => {
    const pre = await t.request('OPTIONS', path, { headers: { origin: GAME, 'access-control-request-method': method } })
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    expect(pre.headers.get('access-control-allow-methods')).toBeNull()
    const res = await t.request(method, path, { headers: { origin: GAME }, body: method === 'GET' ? undefined : {} })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('sends none on the dashboard, the docs or health', async () => {
    for (const path of ['/health', '/openapi.json']) {
      const res = await t.request('GET', path, { headers: { origin: GAME } })
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    }
  })
})
