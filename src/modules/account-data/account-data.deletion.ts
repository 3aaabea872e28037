import type { AppDeps } from '../../app-deps'
import { conflict } from '../../http/errors'
import { forgetSdkCallers } from '../../http/sdk-callers'
import { createAccountsRepository } from '../auth/accounts.repository'
import { deleteProjectActivity } from '../activity/activity.service'
import { createActivityRepository } from '../activity/activity.repository'
import { createCommentsRepository } from '../comments/comments.repository'
import { projectFileKeys } from '../project-admin/project-files'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createAuthRepository } from '../auth/auth.repository'
import type { User } from '../auth/auth.sessions'

export const CANCEL_SUBSCRIPTION_JOB = 'billing.cancel-subscription'

/**
 * Deletes the user and what only they own: the accounts they own (with their projects, reports and
 * stored files), their memberships elsewhere, sessions and tokens. Nothing is handed to anyone else:
 * an owned account with other members is a 409 until ownership moves or the members leave. Comments
 * they wrote in other accounts stay, without an author. A paid subscription of an owned account is
 * cancelled through the billing job queued in the same transaction.
 */
export async function deleteUserAccount(deps: AppDeps, user: User): Promise<{ message: string }> {
  const { db, files } = deps
  const fileKeys = await db.write(async (tx) => {
    const accounts = createAccountsRepository({ db: tx })
    const owned = await accounts.ownedBy(user.id)
    const ownedIds = owned.map((a) => a.id)
    if ((await accounts.otherMembersCount(ownedIds, user.id)) > 0) throw conflict('transfer ownership or remove the other members first')
    const projectIds = (await createProjectsRepository({ db: tx }).inAccounts(ownedIds)).map((p) => p.id)
    const keys = (await Promise.all(projectIds.map((id) => projectFileKeys(db, id)))).flat()

    await deps.jobs.enqueue(
      tx,
      owned.flatMap((account) =>
        account.stripeSubscriptionId
          ? [{ kind: CANCEL_SUBSCRIPTION_JOB, payload: { subscriptionId: account.stripeSubscriptionId, accountId: account.id }, idempotencyKey: `${CANCEL_SUBSCRIPTION_JOB}:${account.stripeSubscriptionId}` }]
          : [],
      ),
    )
    // Activity and audit rows carry project/account ids without foreign keys, so they go explicitly.
    for (const id of projectIds) await deleteProjectActivity(tx, id)
    await createActivityRepository({ db: tx }).deleteAuditOf(ownedIds)
    await accounts.removeMany(ownedIds)
    // What they touched in other people's projects stays, detached from the deleted person.
    await createCommentsRepository({ db: tx }).detachAuthor(user.id)
    await createReportsRepository({ db: tx }).detachUser(user.id)
    // Sessions, memberships, verification tokens and share codes cascade with the user row.
    await createAuthRepository({ db }).removeUser(user.id)
    return keys
  })
  forgetSdkCallers(db)
  // Blobs go once the rows are gone for good; a failed transaction leaves every file in place.
  await files.remove(db, fileKeys)
  return { message: 'Your account and its data were deleted' }
}
