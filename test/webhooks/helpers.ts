import { accountMembers } from '../../src/modules/accounts/accounts.table'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A second user added to `owner`'s account as a plain member, with permission overrides. */
export async function addMember(t: TestApp, owner: TestUser, overrides: Record<string, boolean> = {}) {
  const m = await createUser(t)
  t.deps.db.insert(accountMembers).values({ accountId: owner.account.id, userId: m.user.id, role: 'member', permissionOverrides: overrides, createdAt: t.clock.now() }).run()
  return { ...m, token: createSession(t.deps.db, m.user.id, t.clock.now()) }
}

/** Creates a webhook through the API and returns its id. */
export async function createWebhook(t: TestApp, owner: TestUser, project: TestProject, body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', `/api/projects/${project.slug}/webhooks/generic`, { token: owner.token, body })
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data.id
}

/** Pending webhook jobs, by status. */
export function webhookJobs(t: TestApp) {
  return t.sqlite.query("select status, attempts, run_at as runAt, payload from jobs where kind = 'webhook.deliver' order by id").all() as {
    status: string
    attempts: number
    runAt: number
    payload: string
  }[]
}
