// GLITCHBOX_TRUST_PROXY and GLITCHBOX_RATE_LIMIT_*: the client address comes from the right of
// X-Forwarded-For (never the client-written left), and every budget can be resized or turned off.
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/config'
import { clientIp, describeTrustProxy, parseTrustProxy } from '../../src/http/client-ip'
import { sdkProject } from '../sdk/sdk-helpers'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp | undefined
afterEach(() => t?.close())

let attempt = 0
/** A failed login for a fresh unknown address each time, so only the per-address budgets can refuse it (not the per-account lockout). */
const login = (app: TestApp, headers: Record<string, string>) =>
  app.request('POST', '/api/auth/login', { headers, body: { email: `nobody${++attempt}@example.com`, password: 'wrong-password' } })

describe('GLITCHBOX_TRUST_PROXY=true (one proxy that appends)', () => {
  it('keeps a spent login budget when the client prepends its own X-Forwarded-For entry', async () => {
    t = createTestApp()
    const me = '203.0.113.50'
    for (let i = 0; i < 10; i++) expect((await login(t, { 'x-forwarded-for': me })).status).toBe(401)
    expect((await login(t, { 'x-forwarded-for': me })).status).toBe(429)
    // What the proxy forwards when the client sent `X-Forwarded-For: 198.51.100.1` itself.
    const spoofed = await login(t, { 'x-forwarded-for': `198.51.100.1, ${me}` })
    expect(spoofed.status).toBe(429)
    expect(spoofed.body).toEqual({ ok: false, error: 'too many requests, slow down' })
    // Another client behind the same proxy has its own budget.
    expect((await login(t, { 'x-forwarded-for': `${me}, 203.0.113.51` })).status).toBe(401)
  })
})

/** A stand-in for Bun's server that reports `peer` as the socket address. */
const peer = (address: string) => ({ requestIP: () => ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', port: 1 }) }) as never
const req = (xff?: string) => new Request('http://localhost/api/x', { headers: xff === undefined ? {} : { 'x-forwarded-for': xff } })

describe('GLITCHBOX_TRUST_PROXY=true on a server exposed directly (the socket peer is a public address)', () => {
  /** The test app as if every connection came from `address` (in-process requests have no socket). */
  const connectedFrom = (app: TestApp, address: string) => {
    ;(app.app as { server: unknown }).server = peer(address)
  }

  it('ignores X-Forwarded-For from a public peer: 40 logins with 40 addresses get 10 answers, then 429', async () => {
    t = createTestApp()
    connectedFrom(t, '203.0.113.99')
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await login(t, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toEqual(Array(30).fill(429))
  })

  it('ignores X-Forwarded-For from a public peer on SDK routes too: the 31st request a minute is refused', async () => {
    t = createTestApp()
    const { key } = await sdkProject(t)
    connectedFrom(t, '2001:db8:5::7')
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await t.request('GET', '/api/bugs/settings', { apiKey: key, ip: `198.51.100.${i + 1}` })).status)
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200))
    expect(statuses[30]).toBe(429)
  })

  it.each(['10.1.2.3', '172.20.0.4', '192.168.1.10', '127.0.0.1', '169.254.0.9', '::1', 'fd12:3456::1', 'fe80::1', '::ffff:192.168.1.10'])(
    'believes X-Forwarded-For from a proxy at %s: 12 logins with 12 addresses all reach the login check',
    async (address) => {
      t = createTestApp()
      connectedFrom(t, address)
      for (let i = 0; i < 12; i++) expect((await login(t, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).toBe(401)
    },
  )
})

describe('clientIp', () => {
  it.each([
    ['false', '198.51.100.1, 203.0.113.7', '10.0.0.2', '10.0.0.2'],
    ['true', '198.51.100.1, 203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['true', '203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['true', undefined, '10.0.0.2', '10.0.0.2'],
    // A hop count believes X-Forwarded-For only from a peer on a loopback, private or link-local address.
    ['true', '198.51.100.1, 203.0.113.7', '203.0.113.99', '203.0.113.99'],
    ['true', '203.0.113.7', '172.32.0.1', '172.32.0.1'],
    ['true', '203.0.113.7', '::ffff:8.8.8.8', '::ffff:8.8.8.8'],
    ['true', '203.0.113.7', '2001:db8::9', '2001:db8::9'],
    ['true', '203.0.113.7', '100.64.0.1', '100.64.0.1'],
    ['2', '198.51.100.1, 203.0.113.7, 10.0.0.9', '198.51.100.50', '198.51.100.50'],
    ['true', '203.0.113.7', '127.0.0.1', '203.0.113.7'],
    ['true', '203.0.113.7', '172.31.255.1', '203.0.113.7'],
    ['true', '203.0.113.7', '192.168.0.1', '203.0.113.7'],
    ['true', '203.0.113.7', '169.254.1.1', '203.0.113.7'],
    ['true', '203.0.113.7', '::1', '203.0.113.7'],
    ['true', '203.0.113.7', 'fd00::1', '203.0.113.7'],
    ['true', '203.0.113.7', 'fe80::1%eth0', '203.0.113.7'],
    ['true', '203.0.113.7', '::ffff:10.0.0.2', '203.0.113.7'],
    ['true', '203.0.113.7', '::ffff:7f00:1', '203.0.113.7'],
    ['2', '198.51.100.1, 203.0.113.7, 10.0.0.9', '::ffff:127.0.0.1', '203.0.113.7'],
    ['1', '198.51.100.1,203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['2', '198.51.100.1, 203.0.113.7, 10.0.0.9', '10.0.0.2', '203.0.113.7'],
    ['3', '203.0.113.7, 10.0.0.9', '10.0.0.2', '203.0.113.7'],
    // Trusted networks: walk from the right past trusted proxies; the socket peer must be one of them.
    ['10.0.0.0/8, 192.168.1.1', '198.51.100.1, 203.0.113.7, 192.168.1.1, 10.0.0.9', '10.0.0.2', '203.0.113.7'],
    ['10.0.0.0/8', '198.51.100.1, 203.0.113.7', '203.0.113.99', '203.0.113.99'],
    ['10.0.0.0/8', '203.0.113.7', '::ffff:10.0.0.2', '203.0.113.7'],
    ['fd00::/8', '2001:db8::1, fd00::5', 'fd00::1', '2001:db8::1'],
    ['10.0.0.0/8', undefined, '10.0.0.2', '10.0.0.2'],
  ])('GLITCHBOX_TRUST_PROXY=%s, X-Forwarded-For %s from %s → %s', (trust, xff, socket, expected) => {
    expect(clientIp(req(xff), peer(socket), parseTrustProxy(trust))).toBe(expected)
  })

  it.each([
    ['false', 'client addresses: the connecting address (X-Forwarded-For ignored)'],
    ['true', 'client addresses: X-Forwarded-For trusted from 1 proxy when the connection comes from a loopback, private or link-local address'],
    ['3', 'client addresses: X-Forwarded-For trusted from 3 proxies when the connection comes from a loopback, private or link-local address'],
    ['10.0.0.0/8, FD00::/8,192.0.2.7', 'client addresses: X-Forwarded-For trusted from proxies in 10.0.0.0/8, fd00::/8, 192.0.2.7'],
  ])('describes GLITCHBOX_TRUST_PROXY=%s in words for the start-up log', (trust, words) => {
    expect(describeTrustProxy(parseTrustProxy(trust))).toBe(words)
  })

  it('reads the CIDR form from the configuration', () => {
    expect(loadConfig({ GLITCHBOX_TRUST_PROXY: '10.0.0.0/8,fd00::/8' }).trustProxy).toEqual({ cidrs: expect.any(Array) })
    expect(loadConfig({ GLITCHBOX_TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 })
    expect(loadConfig({}).trustProxy).toEqual({ hops: 0 })
  })

  it.each([
    ['GLITCHBOX_TRUST_PROXY', 'maybe'],
    ['GLITCHBOX_TRUST_PROXY', '10.0.0.0/33'],
    ['GLITCHBOX_TRUST_PROXY', '10.0.0.0/8,proxy.local'],
    ['GLITCHBOX_RATE_LIMIT_GLOBAL', '-1'],
    ['GLITCHBOX_RATE_LIMIT_PUBLIC', 'lots'],
    ['GLITCHBOX_RATE_LIMIT_PERF', '1.5'],
    ['GLITCHBOX_RATE_LIMIT_AUTH', 'ten'],
  ])('refuses %s=%s at start-up, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name))
  })
})

describe('GLITCHBOX_RATE_LIMIT_*', () => {
  const settings = (app: TestApp, key: string, ip: string) => app.request('GET', '/api/bugs/settings', { apiKey: key, ip })

  it('keeps the spec defaults: the 31st SDK request a minute from one address is refused', async () => {
    t = createTestApp()
    const { key } = await sdkProject(t)
    for (let i = 0; i < 30; i++) expect((await settings(t, key, '198.51.100.7')).status).toBe(200)
    const refused = await settings(t, key, '198.51.100.7')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBeTruthy()
  })

  it('lets a playtest behind one NAT through with a raised public budget', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '100' } })
    const { key } = await sdkProject(t)
    for (let i = 0; i < 100; i++) expect((await settings(t, key, '198.51.100.7')).status).toBe(200)
    const last = await settings(t, key, '198.51.100.8')
    expect(last.headers.get('x-ratelimit-limit')).toBe('100')
    expect((await settings(t, key, '198.51.100.7')).status).toBe(429)
  })

  it('turns a budget off with 0 (the global one still counts)', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
    const { key } = await sdkProject(t)
    for (let i = 0; i < 40; i++) expect((await settings(t, key, '198.51.100.7')).status).toBe(200)
    expect((await settings(t, key, '198.51.100.7')).headers.get('x-ratelimit-limit')).toBe('300')
  })

  it('turns every budget off: no 429 and no rate headers', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_GLOBAL: '0', GLITCHBOX_RATE_LIMIT_AUTH: '0' } })
    for (let i = 0; i < 12; i++) {
      const res = await login(t, { 'x-forwarded-for': '198.51.100.7' })
      expect(res.status).toBe(401)
      expect(res.headers.get('x-ratelimit-limit')).toBeNull()
    }
  })

  it('resizes the login budget and counts password reset against it', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_AUTH: '3' } })
    const ip = '198.51.100.9'
    await t.request('POST', '/api/auth/forgot-password', { ip, body: { email: 'nobody@example.com' } })
    await t.request('POST', '/api/auth/reset-password', { ip, body: { token: 'x'.repeat(40), new_password: 'long-enough-1' } })
    expect((await login(t, { 'x-forwarded-for': ip })).status).toBe(401)
    const refused = await login(t, { 'x-forwarded-for': ip })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3')
  })

  it('gives the telemetry routes their own budget', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PERF: '2' } })
    const { key } = await sdkProject(t)
    const ip = '198.51.100.10'
    const perf = () => t!.request('POST', '/api/perf/snapshot', { apiKey: key, ip, body: { fps: 60 } })
    await perf()
    await perf()
    expect((await perf()).status).toBe(429)
  })
})

describe('IPv6 clients: one budget per /64', () => {
  /** 15 addresses of one /64 (an IPv6 client picks any of them), then the 16th, then one of another /64. */
  const sameNet = (i: number) => `2001:db8:1:2::${(i + 1).toString(16)}`

  it('counts 15 logins from 15 addresses of one /64 against one login budget of 10', async () => {
    t = createTestApp()
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await login(t, { 'x-forwarded-for': sameNet(i) })).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toEqual(Array(5).fill(429))
    // Another /64 is another client.
    expect((await login(t, { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(401)
  })

  it.each([
    ['an SDK route', (key: string) => ({ method: 'GET' as const, path: '/api/bugs/settings', apiKey: key })],
    ['a public route', () => ({ method: 'GET' as const, path: '/api/tracker/no-such-project' })],
  ])('counts %s from 31 addresses of one /64 against one public budget of 30', async (_, call) => {
    t = createTestApp()
    const { key } = await sdkProject(t)
    const { method, path, apiKey } = call(key) as { method: 'GET'; path: string; apiKey?: string }
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await t.request(method, path, { apiKey, ip: sameNet(i) })).status)
    expect(statuses.slice(0, 30)).not.toContain(429)
    expect(statuses[30]).toBe(429)
    expect((await t.request(method, path, { apiKey, ip: '2001:db8:1:3::1' })).status).not.toBe(429)
  })

  it('still gives each IPv4 address its own budget, and an IPv4-mapped form stays an IPv4 client', async () => {
    t = createTestApp()
    for (let i = 0; i < 12; i++) expect((await login(t, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).toBe(401)
    for (let i = 0; i < 12; i++) expect((await login(t, { 'x-forwarded-for': `::ffff:203.0.113.${i + 1}` })).status).toBe(401)
  })
})
