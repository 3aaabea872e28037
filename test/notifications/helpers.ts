import { sql } from 'drizzle-orm'
import { execute, rowsOf } from '../../src/db/client'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A user added to `owner`'s account as a member (their own session token). */
export async function addMember(t: TestApp, owner: TestUser, name?: string): Promise<TestUser> {
  const m = await createUser(t, { name })
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: m.user.id, role: 'member', permissionOverrides: {}, createdAt: t.clock.now() }))
  return m
}

export interface OutboxMail {
  to: string
  subject: string
  text: string
  html: string
}

/** Every mail written so far, oldest first. */
export const outbox = (t: TestApp) => t.deps.db.read((q) => rowsOf<OutboxMail>(q, sql`select "to", subject, text, html from mail_outbox order by id`))

/** Empties the outbox (mails written so far are not the test's subject). */
export const clearOutbox = (t: TestApp) => t.deps.db.write((q) => execute(q, sql`delete from mail_outbox`))

/** Recipients of mails whose subject matches, sorted. */
export const recipients = async (t: TestApp, subject: RegExp) =>
  (await outbox(t))
    .filter((m) => subject.test(m.subject))
    .map((m) => m.to)
    .sort()

/** Sets preferences through the API. */
export async function setPreferences(t: TestApp, user: TestUser, body: Record<string, boolean>) {
  const res = await t.request('PUT', '/api/notifications/preferences', { token: user.token, body })
  if (res.status !== 200) throw new Error(`preferences failed: ${res.status}`)
}
