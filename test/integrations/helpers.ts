import { afterEach, beforeEach } from 'vitest'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createSession } from '../../src/modules/auth/auth.sessions'
import type { PlanKey } from '../../src/modules/auth/plans'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

/** One request a fake provider received. */
export interface Call {
  method: string
  /** Path and query string. */
  path: string
  headers: Headers
  body: string
  json: any
}

/**
 * A fake provider on 127.0.0.1 that records every call and answers with `answer` (changeable
 * between steps of a test, e.g. to fail and then succeed).
 */
export function startFake() {
  const calls: Call[] = []
  const fake = {
    calls,
    answer: (_c: Call): Response | Promise<Response> => new Response('ok'),
    url: '',
    stop: () => {},
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const u = new URL(req.url)
      const body = await req.text()
      let json: unknown = null
      try {
        json = body ? JSON.parse(body) : null
      } catch {
        json = null
      }
      const call = { method: req.method, path: u.pathname + u.search, headers: req.headers, body, json }
      calls.push(call)
      return fake.answer(call)
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  fake.stop = () => server.stop(true)
  return fake
}

export type Fake = ReturnType<typeof startFake>

export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Per test: a fake provider, an app whose providers' base URLs all point at it and which may call
 * 127.0.0.1, an owner (on `plan`) and a project. Fields are set in beforeEach: read them inside tests.
 */
export function integrationsTestbed(o: { plan?: PlanKey; env?: Record<string, string> } = {}) {
  const bed = {} as { t: TestApp; fake: Fake; owner: TestUser; project: TestProject; base: string }
  beforeEach(async () => {
    bed.fake = startFake()
    const env: Record<string, string> = { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', ...o.env }
    for (const key of ['PAGERDUTY', 'OPSGENIE', 'SENTRY', 'TEAMS', 'LINEAR']) env[`GLITCHBOX_PROVIDER_URL_${key}`] = bed.fake.url
    bed.t = createTestApp({ env })
    bed.owner = await createUser(bed.t, { plan: o.plan ?? 'self_hosted' })
    bed.project = await createProject(bed.t, bed.owner)
    bed.base = `/api/projects/${bed.project.slug}/integrations`
  })
  afterEach(() => {
    bed.fake.stop()
    bed.t.close()
  })
  return bed
}

/** Connects a provider through the API and returns the new connection's id. */
export async function connect(bed: { t: TestApp; owner: TestUser; base: string }, provider: string, body: Record<string, unknown>): Promise<string> {
  const res = await bed.t.request('POST', `${bed.base}/${provider}`, { token: bed.owner.token, body })
  if (res.status !== 201) throw new Error(`connect ${provider} failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data.id
}

/** A second user in `owner`'s account as a plain member, with permission overrides. */
export async function addMember(t: TestApp, owner: TestUser, overrides: Record<string, boolean> = {}) {
  const m = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: m.user.id, role: 'member', permissionOverrides: overrides, createdAt: t.clock.now() }))
  return { ...m, token: await createSession(t.deps.db, m.user.id, t.clock.now()) }
}

/** Files a report through the API (so bug_created is emitted as in production). */
export async function fileBug(bed: { t: TestApp; owner: TestUser; project: TestProject }, body: Record<string, unknown>) {
  const res = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs`, { token: bed.owner.token, body: { description: 'It broke', ...body } })
  if (res.status !== 201) throw new Error(`file bug failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** Changes a report's status through the API (emits bug_updated). */
export async function setStatus(bed: { t: TestApp; owner: TestUser; project: TestProject }, number: number, status: string) {
  const res = await bed.t.request('PATCH', `/api/projects/${bed.project.slug}/bugs/${number}`, { token: bed.owner.token, body: { status } })
  if (res.status !== 200) throw new Error(`status change failed: ${res.status} ${JSON.stringify(res.body)}`)
}
