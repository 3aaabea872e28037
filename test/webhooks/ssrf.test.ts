import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isPublicIp, parseIp } from '../../src/net/ip-ranges'
import { assertPublicUrl, UnsafeTargetError } from '../../src/net/safe-fetch'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

const refused = [
  'http://127.0.0.1/',
  'http://127.8.9.10:8080/x',
  'http://localhost:3000/',
  'http://LOCALHOST./',
  'http://app.localhost/',
  'http://2130706433/', // decimal 127.0.0.1
  'http://0x7f000001/', // hex
  'http://0177.0.0.1/', // octal
  'http://127.1/', // short form
  'http://%31%32%37.0.0.1/', // percent-encoded
  'http://0.0.0.0/',
  'http://0/',
  'http://10.0.0.5/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://100.64.0.1/', // CGNAT
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://169.254.1.1/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://198.18.0.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:169.254.169.254]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[::127.0.0.1]/', // IPv4-compatible
  'http://[64:ff9b::7f00:1]/', // NAT64 of 127.0.0.1
  'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
  'http://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
  'http://[fd00:ec2::254]/', // AWS metadata over IPv6
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[2001:db8::1]/',
  'ftp://8.8.8.8/',
  'file:///etc/passwd',
  'gopher://8.8.8.8/',
]
const allowed = ['https://8.8.8.8/hook', 'http://1.1.1.1:8080/x', 'https://[2606:4700:4700::1111]/', 'http://[::ffff:8.8.8.8]/', 'http://[64:ff9b::808:808]/', 'http://172.32.0.1/', 'http://100.128.0.1/']

describe('webhook creation without GLITCHBOX_ALLOW_PRIVATE_TARGETS', () => {
  let t: TestApp
  let owner: TestUser
  let project: TestProject
  beforeEach(async () => {
    t = createTestApp()
    owner = await createUser(t)
    project = await createProject(t, owner)
  })
  afterEach(() => t.close())

  it.each(refused)('refuses %s with 400', async (url) => {
    const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body: { url } })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toMatch(/not allowed|private or reserved|http or https/)
  })

  it.each([
    ['http://10.1.2.3/hook', 'url resolves to a private or reserved address (10.1.2.3), which is not allowed'],
    ['http://localhost:8080/hook', 'url host localhost is not allowed'],
  ])('says how to allow a private target when it refuses %s', async (url, reason) => {
    const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body: { url } })
    expect([res.status, res.body.error]).toEqual([400, `${reason}; to allow private targets, set GLITCHBOX_ALLOW_PRIVATE_TARGETS=true and restart Glitchbox`])
  })

  it.each(allowed)('accepts the public address %s', async (url) => {
    const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body: { url } })
    expect(res.status).toBe(201)
  })

  it('refuses a host name that does not resolve', async () => {
    const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body: { url: 'https://no-such-host.invalid/x' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/could not be resolved/)
  })
})

describe('assertPublicUrl', () => {
  it('lets every http(s) URL through when private targets are allowed, but no other scheme', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:1/x', { allowPrivate: true })).resolves.toBeInstanceOf(URL)
    await expect(assertPublicUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toBeInstanceOf(UnsafeTargetError)
  })

  it('classifies addresses as the resolver returns them', () => {
    const pub = (a: string) => isPublicIp(parseIp(a)!)
    expect(['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'].map(pub)).toEqual([true, true, true])
    expect(['127.0.0.1', '::1', '::ffff:7f00:1', '10.1.2.3', 'fe80::1%eth0', '169.254.169.254', 'fd00:ec2::254', '2001::1'].map(pub)).toEqual(Array(8).fill(false))
    expect(['1.2.3', '256.1.1.1', 'example.com', '1::2::3', ':::'].map(parseIp)).toEqual([null, null, null, null, null])
  })
})
