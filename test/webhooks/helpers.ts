import { JobRunner } from '../../src/jobs/jobs.runner'
import { silentLogger } from '../../src/lib/logger'
import { DELIVER_KIND } from '../../src/modules/webhooks/webhooks.delivery'
import { fanoutHandler } from '../../src/modules/webhooks/webhooks.fanout'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { afterEach, beforeEach } from 'vitest'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'
import { startReceiver } from './receiver'

/** Runs the due fan-out jobs only, so the deliveries they write stay pending. */
export function runFanouts(t: TestApp): Promise<number> {
  return new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [fanoutHandler(t.deps)] }).drain()
}

/** A second user added to `owner`'s account as a plain member, with permission overrides. */
export async function addMember(t: TestApp, owner: TestUser, overrides: Record<string, boolean> = {}) {
  const m = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: m.user.id, role: 'member', permissionOverrides: overrides, createdAt: t.clock.now() }))
  return { ...m, token: await createSession(t.deps.db, m.user.id, t.clock.now()) }
}

/** Creates a webhook through the API and returns its id. */
export async function createWebhook(t: TestApp, owner: TestUser, project: TestProject, body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body })
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data.id
}

/** The jobs of one webhook kind (deliveries unless told), oldest first. */
export function webhookJobs(t: TestApp, kind: string = DELIVER_KIND) {
  return sqlRows<{
    status: string
    attempts: number
    runAt: number
    payload: string
  }>(t, 'select status, attempts, run_at as "runAt", payload from jobs where kind = ? order by id', kind)
}

/**
 * Per test: an app that may deliver to 127.0.0.1, an owner and a project; `receiver()` starts a
 * local receiver stopped after the test. Fields are set in beforeEach, so read them inside tests.
 */
export function webhookTestbed() {
  const bed = {} as { t: TestApp; owner: TestUser; project: TestProject }
  const stops: (() => void)[] = []
  beforeEach(async () => {
    bed.t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
    bed.owner = await createUser(bed.t)
    bed.project = await createProject(bed.t, bed.owner)
  })
  afterEach(() => {
    for (const stop of stops.splice(0)) stop()
    return bed.t.close()
  })
  const receiver = (...args: Parameters<typeof startReceiver>) => {
    const r = startReceiver(...args)
    stops.push(r.stop)
    return r
  }
  return { bed, receiver }
}
