import { accountMembers } from '../../src/modules/accounts/accounts.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A user added to `owner`'s account as a member (their own session token). */
export async function addMember(t: TestApp, owner: TestUser, name?: string): Promise<TestUser> {
  const m = await createUser(t, { name })
  t.deps.db.insert(accountMembers).values({ accountId: owner.account.id, userId: m.user.id, role: 'member', permissionOverrides: {}, createdAt: t.clock.now() }).run()
  return m
}

export interface OutboxMail {
  to: string
  subject: string
  text: string
  html: string
}

/** Every mail written so far, oldest first. */
export const outbox = (t: TestApp) => t.sqlite.query('select "to", subject, text, html from mail_outbox order by id').all() as OutboxMail[]

/** Recipients of mails whose subject matches, sorted. */
export const recipients = (t: TestApp, subject: RegExp) =>
  outbox(t)
    .filter((m) => subject.test(m.subject))
    .map((m) => m.to)
    .sort()

/** Sets preferences through the API. */
export async function setPreferences(t: TestApp, user: TestUser, body: Record<string, boolean>) {
  const res = await t.request('PUT', '/api/notifications/preferences', { token: user.token, body })
  if (res.status !== 200) throw new Error(`preferences failed: ${res.status}`)
}
