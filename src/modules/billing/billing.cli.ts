import type { AppDeps } from '../../app-deps'
import { forgetSdkCallers } from '../../http/sdk-callers'
import { createAccountsRepository } from '../auth/accounts.repository'
import { recordAudit } from '../activity/activity.service'
import { createAuthRepository } from '../auth/auth.repository'
import { PLAN_KEYS, type PlanKey } from '../auth/plans'

/** `glitchbox admin set-plan EMAIL PLAN`: sets the plan of the account the user owns, for operators who do not bill. */
export async function adminSetPlan(deps: AppDeps, email: string, plan: string): Promise<void> {
  if (!(PLAN_KEYS as readonly string[]).includes(plan)) throw new Error(`unknown plan "${plan}" (expected ${PLAN_KEYS.join(', ')})`)
  const user = await createAuthRepository({ db: deps.db }).userByEmail(email)
  if (!user) throw new Error(`no user with email ${email}`)
  const account = await createAccountsRepository({ db: deps.db }).firstOwnedBy(user.id)
  if (!account) throw new Error(`${email} owns no account`)
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createAccountsRepository({ db: deps.db }).update(account.id, { plan: plan as PlanKey, updatedAt: now })
    await recordAudit(tx, now, { accountId: account.id, actorId: null, action: 'billing.plan_changed', details: { from: account.plan, to: plan, by: 'operator' } })
  })
  // A server running on this data directory picks the plan up within a second (see sdk-callers.ts).
  forgetSdkCallers(deps.db)
}
