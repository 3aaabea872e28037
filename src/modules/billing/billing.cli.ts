import { asc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import { forgetSdkCallers } from '../../http/sdk-callers'
import { accounts } from '../accounts/accounts.table'
import { recordAudit } from '../activity/activity.service'
import { users } from '../auth/auth.table'
import { PLAN_KEYS, type PlanKey } from './plans'

/** `glitchbox admin set-plan EMAIL PLAN`: sets the plan of the account the user owns, for operators who do not bill. */
export function adminSetPlan(deps: AppDeps, email: string, plan: string): void {
  if (!(PLAN_KEYS as readonly string[]).includes(plan)) throw new Error(`unknown plan "${plan}" (expected ${PLAN_KEYS.join(', ')})`)
  const user = deps.db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).get()
  if (!user) throw new Error(`no user with email ${email}`)
  const account = deps.db.select().from(accounts).where(eq(accounts.ownerId, user.id)).orderBy(asc(accounts.createdAt)).get()
  if (!account) throw new Error(`${email} owns no account`)
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.update(accounts).set({ plan: plan as PlanKey, updatedAt: now }).where(eq(accounts.id, account.id)).run()
    recordAudit(tx, now, { accountId: account.id, actorId: null, action: 'billing.plan_changed', details: { from: account.plan, to: plan, by: 'operator' } })
  })
  // A server running on this data directory picks the plan up within a second (see sdk-callers.ts).
  forgetSdkCallers(deps.db)
}
