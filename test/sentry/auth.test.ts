// Sentry clients send their key in one of four places (CONTRACT.md § "Sentry SDKs", "Key").
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseAuthHeader, parseDsn, sentryAuthOf } from '../../src/modules/sentry/protocol/auth'
import { fuzzSeed } from '../helpers/fuzz-seed'

/** The properties below run from this seed (GLITCHBOX_FUZZ_SEED replays another; fast-check prints it). */
const SEED = fuzzSeed(20261101)

const KEY = 'sk_live_AbC123xyz'
const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers: new Headers(headers) })

describe('parseDsn', () => {
  it.each([
    [`https://${KEY}@glitchbox.example/42`, { scheme: 'https', publicKey: KEY, secretKey: null, host: 'glitchbox.example', path: '', projectId: '42' }],
    [`http://${KEY}@127.0.0.1:9000/7`, { scheme: 'http', publicKey: KEY, secretKey: null, host: '127.0.0.1:9000', path: '', projectId: '7' }],
    ['https://e12d836b15bb49d7bbf99e64295d995b:secret@sentry.example/prefix/sub/42/', { scheme: 'https', publicKey: 'e12d836b15bb49d7bbf99e64295d995b', secretKey: 'secret', host: 'sentry.example', path: 'prefix/sub', projectId: '42' }],
    ['https://e12d836b15bb49d7bbf99e64295d995b:@sentry.example/42', { publicKey: 'e12d836b15bb49d7bbf99e64295d995b', secretKey: null, projectId: '42' }],
    ['https://k%2Dey@h.example/1', { publicKey: 'k-ey', projectId: '1' }],
  ])('parses %s', (dsn, expected) => {
    expect(parseDsn(dsn)).toMatchObject(expected)
  })

  it.each([
    ['no key', 'https://glitchbox.example/42'],
    ['no project id', `https://${KEY}@glitchbox.example/`],
    ['another scheme', `ftp://${KEY}@glitchbox.example/42`],
    ['a key with spaces', 'https://a%20b@glitchbox.example/42'],
    ['a broken escape', 'https://a%zz@glitchbox.example/42'],
    ['plain text', 'not a dsn'],
    ['an empty string', ''],
    ['a number', 42],
    ['null', null],
    ['an object', { dsn: `https://${KEY}@h/1` }],
    ['a 2000-character DSN', `https://${'k'.repeat(1970)}@h.example/1`],
  ])('returns null for %s', (_name, dsn) => {
    expect(parseDsn(dsn)).toBeNull()
  })
})

describe('parseAuthHeader', () => {
  it.each([
    [`Sentry sentry_key=${KEY}, sentry_version=7, sentry_client=sentry.python/1.9.10`, { key: KEY, version: '7', client: 'sentry.python/1.9.10' }],
    [`sentry sentry_version=7,sentry_key=${KEY}`, { key: KEY, version: '7', client: null }],
    [`Sentry sentry_key="${KEY}", sentry_timestamp=1700000000.1, sentry_secret=s`, { key: KEY, version: null }],
    [`sentry_key=${KEY}`, { key: KEY }],
    [`Sentry key=${KEY}, version=7`, { key: KEY, version: '7' }],
  ])('reads %s', (value, expected) => {
    expect(parseAuthHeader(value)).toMatchObject({ source: 'x-sentry-auth', ...expected })
  })

  it.each(['', 'Sentry', 'Sentry sentry_version=7', 'Sentry sentry_key=', 'Sentry sentry_key=a b', 'Bearer abc', `Sentry sentry_key=${'k'.repeat(201)}`, 'x'.repeat(5000)])('returns null for %j', (value) => {
    expect(parseAuthHeader(value)).toBeNull()
  })
})

describe('sentryAuthOf', () => {
  const url = 'http://127.0.0.1/api/42/envelope/'
  it('reads X-Sentry-Auth', () => {
    expect(sentryAuthOf(request(url, { 'x-sentry-auth': `Sentry sentry_key=${KEY}, sentry_version=7` }))).toEqual({ key: KEY, version: '7', client: null, source: 'x-sentry-auth' })
  })

  it('reads Authorization: Sentry … and Authorization: DSN …, not a Bearer token', () => {
    expect(sentryAuthOf(request(url, { authorization: `Sentry sentry_key=${KEY}, sentry_client=sentry-cli/3.8.0` }))).toEqual({ key: KEY, version: null, client: 'sentry-cli/3.8.0', source: 'authorization' })
    expect(sentryAuthOf(request(url, { authorization: `DSN https://${KEY}@h.example/42` }))).toMatchObject({ key: KEY, source: 'authorization' })
    expect(sentryAuthOf(request(url, { authorization: `Bearer ${KEY}` }))).toBeNull()
  })

  it('reads the query string, as browser SDKs send it', () => {
    expect(sentryAuthOf(request(`${url}?sentry_key=${KEY}&sentry_version=7&sentry_client=sentry.javascript.browser%2F11.12.0`))).toEqual({
      key: KEY,
      version: '7',
      client: 'sentry.javascript.browser/11.12.0',
      source: 'query',
    })
  })

  it('falls back to the envelope header\'s DSN', () => {
    expect(sentryAuthOf(request(url), `https://${KEY}@h.example/42`)).toEqual({ key: KEY, version: null, client: null, source: 'envelope-dsn' })
    expect(sentryAuthOf(request(url), 'junk')).toBeNull()
    expect(sentryAuthOf(request(url))).toBeNull()
  })

  it('prefers the header, then Authorization, then the query, then the envelope', () => {
    const all = request(`${url}?sentry_key=fromquery`, { 'x-sentry-auth': 'Sentry sentry_key=fromheader', authorization: 'Sentry sentry_key=fromauthorization' })
    expect(sentryAuthOf(all, 'https://fromdsn@h/1')?.key).toBe('fromheader')
    all.headers.delete('x-sentry-auth')
    expect(sentryAuthOf(all, 'https://fromdsn@h/1')?.key).toBe('fromauthorization')
    all.headers.delete('authorization')
    expect(sentryAuthOf(all, 'https://fromdsn@h/1')?.key).toBe('fromquery')
    expect(sentryAuthOf(request(url, { 'x-sentry-auth': 'Sentry sentry_version=7' }), 'https://fromdsn@h/1')?.key).toBe('fromdsn')
  })

  it('never throws on junk headers, URLs and DSNs', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.anything(), (header, authorization, query, dsn) => {
        const headers = new Headers()
        // Header values cannot hold newlines or NULs; fetch refuses them before a route sees them.
        const clean = (s: string) => s.replace(/[\0\r\n]/g, '')
        headers.set('x-sentry-auth', clean(header))
        headers.set('authorization', clean(authorization))
        const auth = sentryAuthOf({ url: `http://h/api/1/store/?${query}`, headers }, dsn)
        if (auth) expect(auth.key).toMatch(/^[A-Za-z0-9._~-]{1,200}$/)
      }),
      { numRuns: 500, seed: SEED },
    )
  })
})
