import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { forbidden } from '../../http/errors'
import { accounts } from '../accounts/accounts.table'
import { exceeds, limitOwner, PlanLimitError, PLANS, type PlanKey } from './plans'

/** Counts `bytes` of uploads against the plan's upload quota, or throws 403 when it is reached. */
export function chargeUpload(tx: DbOrTx, accountId: string, bytes: number): void {
  const acc = tx.select({ plan: accounts.plan, used: accounts.uploadBytesUsed }).from(accounts).where(eq(accounts.id, accountId)).get()
  if (!acc) throw forbidden('account not found')
  const plan = PLANS[acc.plan as PlanKey]
  if (exceeds(acc.used + bytes, plan.limits.uploadBytes)) throw new PlanLimitError((plans) => `${limitOwner(plan, plans)}'s upload quota is reached`, 'upload more')
  // storage_bytes stays null (not counted yet) until it is first read, which counts it.
  tx.update(accounts)
    .set({ uploadBytesUsed: sql`${accounts.uploadBytesUsed} + ${bytes}`, storageBytes: sql`${accounts.storageBytes} + ${bytes}` })
    .where(eq(accounts.id, accountId))
    .run()
}
