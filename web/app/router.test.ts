import { describe, expect, it } from 'vitest'
import { buildUrl, isAppHref, matchPath, parseQuery, resolve, type Route } from './router'
import { safeNext } from './auth/next'

describe('matchPath', () => {
  it.each([
    ['/projects/:slug', '/projects/abc', { slug: 'abc' }],
    ['/projects/:slug', '/projects/abc/', { slug: 'abc' }],
    ['/projects/:slug/reports/:number', '/projects/a-b/reports/12', { slug: 'a-b', number: '12' }],
    ['/projects/:slug', '/projects/caf%C3%A9', { slug: 'café' }],
    ['/projects/:slug', '/projects/%E0%A4%A', { slug: '%E0%A4%A' }],
    ['/', '/', {}],
    ['/docs/*', '/docs/a/b', { '*': 'a/b' }],
  ])('%s matches %s', (pattern, path, params) => {
    expect(matchPath(pattern, path)).toEqual(params)
  })

  it.each([
    ['/projects/:slug', '/projects'],
    ['/projects/:slug', '/projects/a/b'],
    ['/projects/new', '/projects/abc'],
    ['/', '/x'],
  ])('%s does not match %s', (pattern, path) => {
    expect(matchPath(pattern, path)).toBeNull()
  })
})

describe('resolve', () => {
  const C = () => null
  const routes: Route[] = [
    { path: '/projects/new', component: C, title: 'new' },
    { path: '/projects/:slug', component: C, title: 'detail' },
  ]
  it('takes the first route that matches', () => {
    expect(resolve(routes, '/projects/new')?.route.title).toBe('new')
    expect(resolve(routes, '/projects/x')?.params).toEqual({ slug: 'x' })
    expect(resolve(routes, '/nowhere')).toBeNull()
  })
})

describe('query strings', () => {
  it('parses a query, the last repeated key winning', () => {
    expect(parseQuery('?status=open&q=a%20b&status=closed')).toEqual({ status: 'closed', q: 'a b' })
    expect(parseQuery('')).toEqual({})
  })
  it('builds a URL leaving out empty values', () => {
    expect(buildUrl('/p', { status: 'open', q: '', page: 2, x: null, y: undefined, z: false, all: true })).toBe('/p?status=open&page=2&all=true')
    expect(buildUrl('/p', {})).toBe('/p')
    expect(buildUrl('/p', { q: 'a&b=c' })).toBe('/p?q=a%26b%3Dc')
  })
  it('round-trips through parse and build', () => {
    const q = { status: 'in_progress', q: 'crash "on boot"', page: '3' }
    expect(parseQuery(buildUrl('/x', q).split('?')[1]!)).toEqual(q)
  })
})

describe('isAppHref', () => {
  const o = 'https://gb.example'
  it.each([
    ['/projects/x', true],
    ['https://gb.example/team', true],
    ['/tracker/x', false],
    ['/changelog/x/feed.xml', false],
    ['/api/account/export', false],
    ['/docs', false],
    ['https://elsewhere.example/projects', false],
    ['mailto:a@b.c', false],
  ])('%s → %s', (href, want) => {
    expect(isAppHref(href, o)).toBe(want)
  })
})

describe('safeNext', () => {
  it.each([
    [undefined, '/'],
    ['/projects/x?tab=1', '/projects/x?tab=1'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['/api/auth/me', '/'],
  ])('%s → %s', (next, want) => {
    expect(safeNext(next)).toBe(want)
  })
})
