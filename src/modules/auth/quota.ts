import type { Query } from '../../db/client'
import { forbidden } from '../../http/errors'
import { addUploadBytes, uploadUsageOf } from './accounts.repository'
import { exceeds, limitOwner, PlanLimitError, PLANS, type PlanKey } from './plans'

/** Counts `bytes` of uploads against the plan's upload quota, or throws 403 when it is reached. */
export async function chargeUpload(tx: Query, accountId: string, bytes: number): Promise<void> {
  const acc = await uploadUsageOf(tx, accountId)
  if (!acc) throw forbidden('account not found')
  const plan = PLANS[acc.plan as PlanKey]
  if (exceeds(acc.used + bytes, plan.limits.uploadBytes)) throw new PlanLimitError((plans) => `${limitOwner(plan, plans)}'s upload quota is reached`, 'upload more')
  await addUploadBytes(tx, accountId, bytes)
}
