import { eq } from 'drizzle-orm'
import type { PlanKey } from '../../src/modules/auth/plans'
import { projects } from '../../src/modules/projects/projects.table'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createProject, createUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { forgetSdkCallers } from '../../src/http/sdk-callers'

/** Bytes that sniff as a PNG image (magic number plus padding). */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1])
/** Bytes that sniff as WebM video. */
export const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81])

export const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64')
export const pngDataUrl = () => `data:image/png;base64,${b64(PNG)}`

/** An owner on `plan` with one project; `key` is its API key. */
export async function sdkProject(t: TestApp, plan: PlanKey = 'free') {
  const owner = await createUser(t, { plan })
  const project = await createProject(t, owner)
  return { owner, project, key: project.apiKey }
}

/** Changes project settings directly (the project settings routes belong to another module, and like them it drops the kept SDK callers). */
export async function setProject(t: TestApp, id: string, values: Partial<typeof projects.$inferInsert>) {
  await t.deps.db.write((q) => q.update(projects).set(values).where(eq(projects.id, id)))
  forgetSdkCallers(t.deps.db)
}

/** Rows of a table, for asserting effects. */
export const rows = (t: TestApp, sql: string, ...params: (string | number)[]) => t.sqlite.query(sql).all(...params) as Record<string, any>[]

/** A member of `owner`'s account with role defaults changed by `overrides`; returns their session token. */
export async function addMember(t: TestApp, owner: { account: { id: string } }, overrides: Record<string, boolean> = {}) {
  const member = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: member.user.id, role: 'member', permissionOverrides: overrides, createdAt: t.clock.now() }))
  return member.token
}
