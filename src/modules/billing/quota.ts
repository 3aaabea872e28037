import type { DbOrTx } from '../../db/client'
import { forbidden } from '../../http/errors'
import { addUploadBytes, uploadUsageOf } from '../accounts/accounts.repository'
import { exceeds, limitOwner, PlanLimitError, PLANS, type PlanKey } from './plans'

/** Counts `bytes` of uploads against the plan's upload quota, or throws 403 when it is reached. */
export function chargeUpload(tx: DbOrTx, accountId: string, bytes: number): void {
  const acc = uploadUsageOf(tx, accountId)
  if (!acc) throw forbidden('account not found')
  const plan = PLANS[acc.plan as PlanKey]
  if (exceeds(acc.used + bytes, plan.limits.uploadBytes)) throw new PlanLimitError((plans) => `${limitOwner(plan, plans)}'s upload quota is reached`, 'upload more')
  addUploadBytes(tx, accountId, bytes)
}
