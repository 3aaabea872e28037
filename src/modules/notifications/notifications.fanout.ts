import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { JobHandler } from '../../jobs/jobs.types'
import { createAuthRepository } from '../auth/auth.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { FANOUT_KIND, type FanoutPayload } from './notifications.events'
import { renderMail } from './notifications.mail'
import { claimOnce } from './notifications.once'
import type { PreferenceKey } from './notifications.schemas'
import { createNotificationsRepository } from './notifications.repository'
import { type Recipient, recipientsFor } from './notifications.service'
import { signedUnsubscribeToken, signingKey } from './notifications.tokens'
import { reportPageUrl } from '../reports/report-links'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>

const REASONS: Record<PreferenceKey, string> = {
  email_bug_created: 'you get an email for every new report in your team’s projects.',
  email_bug_status: 'you follow this report or it is assigned to you.',
  email_bug_assigned: 'you get an email when a report is assigned to you.',
  email_bug_commented: 'you follow this report or it is assigned to you.',
  email_weekly_digest: 'you get the weekly digest of your team’s reports.',
}

export const statusLabel = (s: string) => ({ in_progress: 'in progress', wont_fix: 'won’t fix' })[s] ?? s

/** The signed link to the page that asks, then turns `preference` off for `userId` (a link scanner opening it changes nothing). */
const unsubscribeUrl = (deps: Deps, key: string, userId: string, preference: PreferenceKey): string =>
  `${deps.config.publicUrl}/notifications/unsubscribe?token=${signedUnsubscribeToken(key, userId, preference)}`

/** Writes one mail per recipient through the mailer, in `tx`. */
export async function mailEach(deps: Deps, tx: Query, to: Recipient[], preference: PreferenceKey, content: (r: Recipient) => { subject: string; intro: string; body: string[]; link?: { label: string; url: string } }): Promise<void> {
  if (to.length === 0) return
  const key = await signingKey(deps)
  for (const r of to) {
    await deps.mailer.send(tx, renderMail({ to: r.email, ...content(r), unsubscribe: { reason: `You get this email because ${REASONS[preference]}`, url: unsubscribeUrl(deps, key, r.id, preference) } }))
  }
}

/** Picks the recipients of one event by role and preference and mails them. */
async function fanOut(deps: Deps, tx: Query, p: FanoutPayload): Promise<void> {
  const repo = createNotificationsRepository({ db: deps.db })
  const r = await createReportsRepository({ db: deps.db }).byId(p.reportId)
  const project = r && !r.deletedAt ? await createProjectsRepository({ db: deps.db }).byId(r.projectId) : undefined
  if (!r || !project) return
  const accountId = project.accountId
  const actor = p.actorId ? ((await createAuthRepository({ db: deps.db }).userById(p.actorId)) ?? null) : null
  const who = actor ? (actor.displayName ?? actor.name) : null
  const ref = `#${r.reportNumber} ${r.title}`
  const tag = `[${project.name}]`
  const link = { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, project.slug, r.reportNumber) }
  const followers = async () => {
    const ids = await repo.followers(r.id)
    return r.assignedTo ? [...new Set([...ids, r.assignedTo])] : ids
  }

  if (p.type === 'bug_created') {
    const to = await recipientsFor(deps, { accountId, projectId: r.projectId, userIds: 'all', preference: 'email_bug_created', exceptId: p.actorId })
    await mailEach(deps, tx, to, 'email_bug_created', () => ({
      subject: `${tag} New report #${r.reportNumber}: ${r.title}`,
      intro: `${who ?? 'A player'} filed a new report in ${project.name}.`,
      body: [ref, `Priority: ${r.priority} · Category: ${r.category}${r.platform ? ` · Platform: ${r.platform}` : ''}`, r.description.slice(0, 500)],
      link,
    }))
    return
  }

  if (p.type === 'comment_added' && p.comment) {
    const to = await recipientsFor(deps, { accountId, projectId: r.projectId, userIds: await followers(), preference: 'email_bug_commented', exceptId: p.actorId })
    await mailEach(deps, tx, to, 'email_bug_commented', () => ({
      subject: `${tag} New comment on #${r.reportNumber}: ${r.title}`,
      intro: `${p.comment!.author ?? who ?? 'Someone'} commented on ${ref}${p.comment!.internal ? ' (internal note)' : ''}:`,
      body: [p.comment!.body],
      link,
    }))
    return
  }

  const assigned = p.assignee && p.assignee !== p.actorId ? await recipientsFor(deps, { accountId, projectId: r.projectId, userIds: [p.assignee], preference: 'email_bug_assigned' }) : []
  await mailEach(deps, tx, assigned, 'email_bug_assigned', () => ({
    subject: `${tag} You were assigned #${r.reportNumber}: ${r.title}`,
    intro: `${who ?? 'Someone'} assigned ${ref} to you.`,
    body: [`Status: ${statusLabel(r.status)} · Priority: ${r.priority}`],
    link,
  }))
  if (!p.status) return
  const [from, to] = p.status
  // Whoever just got the assignment mail (which shows the status) gets no second mail.
  const candidates = (await followers()).filter((id) => !assigned.some((a) => a.id === id))
  await mailEach(deps, tx, await recipientsFor(deps, { accountId, projectId: r.projectId, userIds: candidates, preference: 'email_bug_status', exceptId: p.actorId }), 'email_bug_status', () => ({
    subject: `${tag} #${r.reportNumber} is now ${statusLabel(to)}: ${r.title}`,
    intro: `${who ?? 'Someone'} changed the status of ${ref} from ${statusLabel(from)} to ${statusLabel(to)}.`,
    body: [],
    link,
  }))
}

/** The `notifications.fanout` job: one run per event, mails written atomically and once. */
export const fanoutHandler = (deps: Deps): JobHandler<FanoutPayload> => ({
  kind: FANOUT_KIND,
  timeoutMs: 60_000,
  async run(payload, ctx) {
    await deps.db.write(async (tx) => {
      if (await claimOnce(deps, ctx.jobId, deps.clock.now())) await fanOut(deps, tx, payload)
    })
  },
})
