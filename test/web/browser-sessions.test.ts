import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { ACCEPTING_SMTP } from '../auth/auth-helpers'
import { sqlRows } from '../helpers/sql-rows'

type T = ReturnType<typeof createTestApp>
const WEB = { 'x-glitchbox-client': 'web' }
const ORIGIN = 'http://glitchbox.test'

/** The `name=value` part of a Set-Cookie header, and its attributes lower-cased. */
function parseSetCookie(header: string | null) {
  expect(header).toBeTruthy()
  const [pair, ...attrs] = header!.split(';').map((s) => s.trim())
  const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)]
  return { name, value, attrs: attrs.map((a) => a.toLowerCase()) }
}

async function webSignup(t: T, email = `web-${crypto.randomUUID().slice(0, 8)}@example.com`) {
  const res = await t.request('POST', '/api/auth/signup', { body: { email, password: 'long-enough-1', name: 'Web' }, headers: WEB })
  expect(res.status).toBe(201)
  const cookie = parseSetCookie(res.headers.get('set-cookie'))
  return { res, cookie, email, header: `glitchbox_session=${cookie.value}` }
}

describe('browser sessions (cookie glitchbox_session)', () => {
  let t: T
  beforeEach(() => {
    t = createTestApp({ transport: ACCEPTING_SMTP })
  })
  afterEach(() => t.close())

  it('signup and login with X-Glitchbox-Client: web set an HttpOnly, SameSite=Lax, 30-day cookie holding the session', async () => {
    const { res, cookie, email } = await webSignup(t)
    expect(cookie.name).toBe('glitchbox_session')
    expect(cookie.value).toBe(res.body.data.token)
    expect(cookie.attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', `max-age=${30 * 24 * 3600}`]))
    // Plain http public URL: no Secure attribute (the cookie would never be sent back).
    expect(cookie.attrs).not.toContain('secure')

    const login = await t.request('POST', '/api/auth/login', { body: { email, password: 'long-enough-1' }, headers: WEB })
    expect(login.status).toBe(200)
    const c2 = parseSetCookie(login.headers.get('set-cookie'))
    expect(c2.value).toBe(login.body.data.token)
    expect(c2.value).not.toBe(cookie.value)
  })

  it('sets no cookie for API clients (no header, or another client name) nor on a failed login', async () => {
    const email = 'api@example.com'
    const plain = await t.request('POST', '/api/auth/signup', { body: { email, password: 'long-enough-1' } })
    expect(plain.status).toBe(201)
    expect(plain.headers.get('set-cookie')).toBeNull()
    const other = await t.request('POST', '/api/auth/login', { body: { email, password: 'long-enough-1' }, headers: { 'x-glitchbox-client': 'unity' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('set-cookie')).toBeNull()
    const wrong = await t.request('POST', '/api/auth/login', { body: { email, password: 'wrong-password' }, headers: WEB })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  it('marks the cookie Secure when the public URL is https', async () => {
    const s = createTestApp({ env: { GLITCHBOX_PUBLIC_URL: 'https://bugs.studio.example' } })
    try {
      const res = await s.request('POST', '/api/auth/signup', { body: { email: 'tls@example.com', password: 'long-enough-1' }, headers: WEB })
      expect(parseSetCookie(res.headers.get('set-cookie')).attrs).toContain('secure')
    } finally {
      s.close()
    }
  })

  it('authenticates reads with the cookie alone; a bad cookie is 401', async () => {
    const { header, email } = await webSignup(t)
    const me = await t.request('GET', '/api/auth/me', { headers: { cookie: `theme=dark; ${header}` } })
    expect(me.status).toBe(200)
    expect(me.body.data.email).toBe(email)
    const bad = await t.request('GET', '/api/auth/me', { headers: { cookie: 'glitchbox_session=nope' } })
    expect(bad.status).toBe(401)
    const mangled = await t.request('GET', '/api/auth/me', { headers: { cookie: 'glitchbox_session=%E0%A4%A' } })
    expect(mangled.status).toBe(401)
    const empty = await t.request('GET', '/api/auth/me', { headers: { cookie: 'glitchbox_session=; other=1' } })
    expect(empty.status).toBe(401)
    expect((await t.request('GET', '/api/auth/me')).status).toBe(401)
  })

  it('lets an Authorization header win over the cookie, and a present but bad header is not rescued by the cookie', async () => {
    const { header } = await webSignup(t)
    const other = await createUser(t)
    const me = await t.request('GET', '/api/auth/me', { token: other.token, headers: { cookie: header } })
    expect(me.body.data.email).toBe(other.user.email)
    const bad = await t.request('GET', '/api/auth/me', { headers: { cookie: header, authorization: 'Basic xyz' } })
    expect(bad.status).toBe(401)
  })

  const changes = [
    ['POST', '/api/projects', { name: 'From the web' }],
    ['PATCH', '/api/auth/profile', { display_name: 'New name' }],
    ['DELETE', '/api/auth/support-share-code', undefined],
  ] as const

  it.each(changes)('%s %s with the cookie needs Origin equal to the server origin, else 403', async (method, path, body) => {
    const { header } = await webSignup(t)
    const missing = await t.request(method, path, { body, headers: { cookie: header } })
    expect(missing.status).toBe(403)
    expect(missing.body.error).toMatch(/cross-origin/)
    const foreign = await t.request(method, path, { body, headers: { cookie: header, origin: 'https://evil.example' } })
    expect(foreign.status).toBe(403)
    const lookalike = await t.request(method, path, { body, headers: { cookie: header, origin: 'http://glitchbox.test.evil.example' } })
    expect(lookalike.status).toBe(403)
    const ok = await t.request(method, path, { body, headers: { cookie: header, origin: ORIGIN } })
    expect(ok.status).toBeLessThan(300)
  })

  it('accepts the origin of the host the request was sent to (the dashboard opened by another name)', async () => {
    const { header } = await webSignup(t)
    const ok = await t.request('POST', '/api/projects', { body: { name: 'By IP' }, headers: { cookie: header, host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' } })
    expect(ok.status).toBe(201)
    const otherPort = await t.request('POST', '/api/projects', { body: { name: 'Other port' }, headers: { cookie: header, host: '127.0.0.1:8080', origin: 'http://127.0.0.1:9999' } })
    expect(otherPort.status).toBe(403)
    const nullOrigin = await t.request('POST', '/api/projects', { body: { name: 'Sandboxed' }, headers: { cookie: header, origin: 'null' } })
    expect(nullOrigin.status).toBe(403)
  })

  it('checks no Origin for reads with the cookie, nor for bearer-token requests that change state', async () => {
    const { header } = await webSignup(t)
    expect((await t.request('GET', '/api/projects', { headers: { cookie: header, origin: 'https://evil.example' } })).status).toBe(200)
    const owner = await createUser(t)
    expect((await t.request('POST', '/api/projects', { token: owner.token, body: { name: 'Scripted' } })).status).toBe(201)
  })

  it('works on project routes (permission macro) with the cookie', async () => {
    const { res, header } = await webSignup(t)
    const created = await t.request('POST', '/api/projects', { body: { name: 'Cookie game' }, headers: { cookie: header, origin: ORIGIN } })
    expect(created.status).toBe(201)
    const slug = created.body.data.slug
    expect((await t.request('GET', `/api/projects/${slug}`, { headers: { cookie: header } })).status).toBe(200)
    const patch = await t.request('PATCH', `/api/projects/${slug}`, { body: { name: 'Renamed' }, headers: { cookie: header } })
    expect(patch.status).toBe(403)
    expect(res.body.data.token).toBeTruthy()
  })

  it('resend-verification accepts the cookie (with the Origin rule)', async () => {
    const { header, email } = await webSignup(t)
    t.clock.advance(2 * 60_000)
    const before = (await sqlRows(t, 'SELECT count(*) AS n FROM mail_outbox WHERE "to" = ?', email))[0] as { n: number }
    const refused = await t.request('POST', '/api/auth/resend-verification', { headers: { cookie: header } })
    expect(refused.status).toBe(403)
    const ok = await t.request('POST', '/api/auth/resend-verification', { headers: { cookie: header, origin: ORIGIN } })
    expect(ok.status).toBe(200)
    const after = (await sqlRows(t, 'SELECT count(*) AS n FROM mail_outbox WHERE "to" = ?', email))[0] as { n: number }
    expect(after.n).toBe(before.n + 1)
  })

  it('logout revokes the session and clears the cookie', async () => {
    const { header } = await webSignup(t)
    const out = await t.request('POST', '/api/auth/logout', { headers: { cookie: header, origin: ORIGIN } })
    expect(out.status).toBe(200)
    const cleared = parseSetCookie(out.headers.get('set-cookie'))
    expect(cleared.name).toBe('glitchbox_session')
    expect(cleared.value).toBe('')
    expect(cleared.attrs).toContain('max-age=0')
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie: header } })).status).toBe(401)
  })

  it('a cross-origin logout with the cookie is refused and the session lives on', async () => {
    const { header } = await webSignup(t)
    expect((await t.request('POST', '/api/auth/logout', { headers: { cookie: header, origin: 'https://evil.example' } })).status).toBe(403)
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie: header } })).status).toBe(200)
  })

  it('project fixtures still work with bearer tokens (unchanged API clients)', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    expect((await t.request('GET', `/api/projects/${p.slug}`, { token: owner.token })).status).toBe(200)
  })
})
