import { eq } from 'drizzle-orm'
import { accounts } from '../../src/modules/auth/accounts.table'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { createSession } from '../../src/modules/auth/auth.sessions'
import type { PlanKey } from '../../src/modules/auth/plans'
import { projects } from '../../src/modules/projects/projects.table'
import { createReport, type NewReport } from '../../src/modules/reports/reports.service'
import { newId, randomBase62 } from '../../src/lib/ids'
import type { TestApp } from './test-app'

let seq = 0

/** A user with their own account (as owner) and a live session token. Password hashing is skipped unless given. */
export async function createUser(t: TestApp, o: { email?: string; name?: string; password?: string; plan?: PlanKey } = {}) {
  const n = ++seq
  const email = o.email ?? `user${n}-${randomBase62(6)}@example.com`
  const passwordHash = o.password ? await Bun.password.hash(o.password, { algorithm: 'argon2id', memoryCost: 4096, timeCost: 1 }) : null
  const user = await createUserWithAccount(t.deps.db, { email, name: o.name ?? `User ${n}`, passwordHash }, o.plan ?? 'free', t.clock.now())
  const token = await createSession(t.deps.db, user.id, t.clock.now())
  const [account] = await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, user.currentAccountId!)).limit(1))
  return { user, token, account: account! }
}

export type TestUser = Awaited<ReturnType<typeof createUser>>

/** A project in the user's current account, inserted directly. */
export async function createProject(t: TestApp, owner: TestUser, o: { name?: string; isPublic?: boolean } = {}) {
  const name = o.name ?? `Game ${++seq}`
  const now = t.clock.now()
  const row = {
    id: newId(),
    accountId: owner.account.id,
    createdBy: owner.user.id,
    name,
    slug: `${owner.user.id.slice(0, 6)}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${seq}`,
    apiKey: `sk_live_${randomBase62(40)}`,
    isPublic: o.isPublic ?? true,
    createdAt: now,
    updatedAt: now,
  }
  await t.deps.db.write((q) => q.insert(projects).values(row))
  const [project] = await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, row.id)).limit(1))
  return project!
}

export type TestProject = Awaited<ReturnType<typeof createProject>>

/** Files a report through the real service (numbering, quota, activity, events). */
export async function createReportIn(t: TestApp, project: TestProject, input: Partial<NewReport> = {}) {
  return t.deps.db.write((tx) => createReport(t.deps, tx, project, { title: `Bug ${++seq}`, description: 'Something broke', ...input }))
}

/**
 * Files each of `inputs` in order through the real service, all in ONE write: a set-up of hundreds of
 * reports pays one transaction instead of one per report (on PostgreSQL a round trip each).
 */
export async function createReportsIn(t: TestApp, project: TestProject, inputs: Partial<NewReport>[]) {
  return t.deps.db.write(async (tx) => {
    const filed = []
    for (const input of inputs) filed.push(await createReport(t.deps, tx, project, { title: `Bug ${++seq}`, description: 'Something broke', ...input }))
    return filed
  })
}
