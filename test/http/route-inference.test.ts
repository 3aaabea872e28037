import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'

/**
 * Elysia reads the source of a route's handler and hooks to learn what each request needs (cookies,
 * the query, a headers object) and builds only that. One global hook taking the whole context made
 * every route parse cookies and the query (~2 µs of a submit, src/http/pipeline.ts). These pin down
 * that the SDK's hot route builds neither, and that routes which do read them still get them.
 */
describe('what each route parses per request', () => {
  let t: TestApp | undefined
  afterEach(() => t?.close())

  type Route = { method: string; path: string; compile: () => unknown }
  const composed = (app: TestApp['app'], method: string, path: string) => {
    const route = (app.router.history as Route[]).find((r) => r.method === method && r.path === path)
    if (!route) throw new Error(`no route ${method} ${path}`)
    return String(route.compile())
  }

  it('the SDK submit route parses neither cookies nor the query string', () => {
    t = createTestApp()
    for (const prefix of ['/api', '/api/v1']) {
      const source = composed(t.app, 'POST', `${prefix}/bugs/submit`)
      expect(source).not.toContain('parseCookie')
      expect(source).not.toContain('parseQueryFromURL')
    }
  })

  it('a route that reads its query string still parses it', () => {
    t = createTestApp()
    expect(composed(t.app, 'GET', '/api/projects/:slug/bugs')).toContain('parseQueryFromURL')
  })
})
