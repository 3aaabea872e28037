import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isPublicIp, parseIp } from '../../src/net/ip-ranges'
import { assertPublicUrl, type Resolver, safeFetch, UnsafeTargetError } from '../../src/net/safe-fetch'
import { webhooks } from '../../src/modules/webhooks/webhooks.table'
import { newId } from '../../src/lib/ids'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { startReceiver } from '../webhooks/receiver'

const FIXTURES = join(import.meta.dirname, 'fixtures')
const cert = () => Bun.file(join(FIXTURES, 'hook.example.test.crt')).text()
const key = () => Bun.file(join(FIXTURES, 'hook.example.test.key')).text()

/** IPv6 forms that carry a private IPv4 address (or are never public), as webhook URL hosts. */
const embeddedPrivate = [
  '[::ffff:0:127.0.0.1]', // IPv4-translated (RFC 2765) loopback
  '[::ffff:0:7f00:1]',
  '[::ffff:0:a9fe:a9fe]', // IPv4-translated cloud metadata
  '[::ffff:0:808:808]', // IPv4-translated: refused whatever it embeds
  '[0:0:0:0:ffff:0:a00:1]',
  '[::a9fe:a9fe]', // IPv4-compatible metadata
  '[64:ff9b::a9fe:a9fe]', // NAT64 of metadata
  '[64:ff9b:1::7f00:1]', // local-use NAT64
  '[2002:a9fe:a9fe::1]', // 6to4 of metadata
  '[2002:c0a8:101::]', // 6to4 of 192.168.1.1
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]', // Teredo (server 65.54.227.120, client obfuscated 127.0.0.1)
  '[100::1]', // discard
  '[3fff::1]', // documentation
]

describe('isPublicIp: IPv6 forms that embed IPv4', () => {
  it.each([
    ['::ffff:0:127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:a9fe:a9fe', false],
    ['::ffff:0:808:808', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::808:808', true],
    ['2002:7f00:1::', false],
    ['2002:808:808::1', true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2606:4700:4700::1111', true],
    ['fd00:ec2::254', false],
    ['4000::1', false],
  ])('%s → %s', (ip, expected) => expect(isPublicIp(parseIp(ip)!)).toBe(expected))
})

describe('webhook URLs with embedded private addresses', () => {
  let t: TestApp
  let owner: TestUser
  let project: TestProject
  beforeEach(async () => {
    t = createTestApp()
    owner = await createUser(t)
    project = await createProject(t, owner)
  })
  afterEach(() => t.close())

  it.each(embeddedPrivate)('refuses http://%s/ at creation with 400', async (host) => {
    const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body: { url: `http://${host}/hook` } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: expect.stringMatching(/private or reserved address/) })
  })

  it.each(embeddedPrivate)('refuses http://%s/ at delivery (a webhook stored before the check)', async (host) => {
    const id = newId()
    await t.deps.db.write((q) => q.insert(webhooks).values({ id, projectId: project.id, name: 'old', url: `http://${host}/hook`, secret: null, eventTypes: 'bug_created', createdBy: owner.user.id, createdAt: t.clock.now() }))
    await createReportIn(t, project)
    await t.runner.drain()
    const [d] = (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`, { token: owner.token })).body.data
    expect(d).toMatchObject({ attempt_count: 1, last_status_code: null, last_error: expect.stringMatching(/private or reserved address/) })
  })
})

describe('safeFetch connects to the address it checked', () => {
  afterEach(() => vi.restoreAllMocks())

  /** A resolver that answers `answers[n]` to its n-th question, counting them. */
  function resolverOf(...answers: string[][]) {
    const asked: string[] = []
    const resolve: Resolver = async (host) => {
      asked.push(host)
      return answers[Math.min(asked.length - 1, answers.length - 1)]!
    }
    return { resolve, asked }
  }

  it('never reaches loopback through a name that rebinds (public first, 127.0.0.1 second)', async () => {
    const { resolve, asked } = resolverOf(['93.184.216.34'], ['127.0.0.1'])
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'))
    const res = await safeFetch('http://rebind.example.test:8080/hook?a=1', { method: 'POST', body: 'x' }, { allowPrivate: false, timeoutMs: 2000, resolve })
    expect(res.status).toBe(200)
    expect(asked).toEqual(['rebind.example.test'])
    expect(spy).toHaveBeenCalledTimes(1)
    const [target, init] = spy.mock.calls[0]! as [URL, BunFetchRequestInit]
    expect(String(target)).toBe('http://93.184.216.34:8080/hook?a=1')
    expect(new Headers(init.headers).get('host')).toBe('rebind.example.test:8080')
    expect(init.redirect).toBe('manual')
  })

  it('prefers an IPv4 address of a dual-stack name (a pinned address gets no fallback between families)', async () => {
    const { resolve } = resolverOf(['2606:4700:4700::1111', '93.184.216.34'])
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'))
    await safeFetch('https://dual.example.test/hook', {}, { allowPrivate: false, timeoutMs: 2000, resolve })
    const [target, init] = spy.mock.calls[0]! as [URL, BunFetchRequestInit]
    expect(String(target)).toBe('https://93.184.216.34/hook')
    expect(init.tls).toEqual({ serverName: 'dual.example.test' })
    expect(new Headers(init.headers).get('host')).toBe('dual.example.test')
  })

  it('connects to an IPv6 address in brackets when there is no IPv4 one', async () => {
    const { resolve } = resolverOf(['2606:4700:4700::1111'])
    const spy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'))
    await safeFetch('http://v6.example.test:8080/hook', {}, { allowPrivate: false, timeoutMs: 2000, resolve })
    expect(String(spy.mock.calls[0]![0])).toBe('http://[2606:4700:4700::1111]:8080/hook')
  })

  it.each([
    ['the name resolves to loopback', [['127.0.0.1']]],
    ['one of its addresses is private', [['93.184.216.34', '10.0.0.7']]],
    ['it resolves to an IPv4-translated loopback', [['::ffff:0:7f00:1']]],
  ])('refuses before connecting when %s', async (_name, answers) => {
    const { resolve } = resolverOf(...answers)
    const spy = vi.spyOn(globalThis, 'fetch')
    await expect(safeFetch('https://hook.example.test/', {}, { allowPrivate: false, timeoutMs: 2000, resolve })).rejects.toBeInstanceOf(UnsafeTargetError)
    await expect(assertPublicUrl('https://hook.example.test/', { allowPrivate: false, resolve })).rejects.toBeInstanceOf(UnsafeTargetError)
    expect(spy).not.toHaveBeenCalled()
  })

  it('sends the Host header of the URL to the resolved address over real sockets', async () => {
    const r = startReceiver()
    try {
      const port = new URL(r.url).port
      // The system resolver does not know this name: the request can only arrive through the pinned address.
      const { resolve } = resolverOf(['127.0.0.1'])
      const res = await safeFetch(`http://hook.example.test:${port}/hook`, { method: 'POST', body: '{}' }, { allowPrivate: true, timeoutMs: 2000, resolve })
      expect(res.status).toBe(200)
      expect(r.received).toHaveLength(1)
      expect(r.received[0]!.headers.get('host')).toBe(`hook.example.test:${port}`)
    } finally {
      r.stop()
    }
  })

  it('keeps TLS on the URL name: SNI and certificate checked against it, not against the address', async () => {
    const ca = await cert()
    const hosts: (string | null)[] = []
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert: ca, key: await key(), serverName: 'hook.example.test' },
      fetch: (req) => {
        hosts.push(req.headers.get('host'))
        return new Response('secure')
      },
    })
    try {
      const { resolve } = resolverOf(['127.0.0.1'])
      const opts = { allowPrivate: true, timeoutMs: 5000, resolve }
      const res = await safeFetch(`https://hook.example.test:${server.port}/x`, { tls: { ca } }, opts)
      expect(await res.text()).toBe('secure')
      expect(hosts).toEqual([`hook.example.test:${server.port}`])
      // The same address under a name the certificate does not carry fails verification.
      await expect(safeFetch(`https://other.example.test:${server.port}/x`, { tls: { ca } }, opts)).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })
      expect(hosts).toHaveLength(1)
    } finally {
      server.stop(true)
    }
  })
})
