import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { JobHandler } from '../../jobs/jobs.types'
import { users } from '../auth/auth.table'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { FANOUT_KIND, type FanoutPayload } from './notifications.events'
import { renderMail } from './notifications.mail'
import { claimOnce } from './notifications.once'
import type { PreferenceKey } from './notifications.schemas'
import { type Recipient, recipientsFor } from './notifications.service'
import { reportSubscriptions } from './notifications.table'
import { unsubscribeToken } from './notifications.tokens'
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
export function unsubscribeUrl(deps: Deps, tx: Tx, userId: string, preference: PreferenceKey): string {
  return `${deps.config.publicUrl}/notifications/unsubscribe?token=${unsubscribeToken(tx, userId, preference)}`
}

/** Writes one mail per recipient through the mailer, in `tx`. */
export function mailEach(deps: Deps, tx: Tx, to: Recipient[], preference: PreferenceKey, content: (r: Recipient) => { subject: string; intro: string; body: string[]; link?: { label: string; url: string } }): void {
  for (const r of to) {
    deps.mailer.send(tx, renderMail({ to: r.email, ...content(r), unsubscribe: { reason: `You get this email because ${REASONS[preference]}`, url: unsubscribeUrl(deps, tx, r.id, preference) } }))
  }
}

/** Picks the recipients of one event by role and preference and mails them. */
function fanOut(deps: Deps, tx: Tx, p: FanoutPayload): void {
  const row = tx
    .select({ r: reports, project: { name: projects.name, slug: projects.slug, accountId: projects.accountId } })
    .from(reports)
    .innerJoin(projects, eq(projects.id, reports.projectId))
    .where(eq(reports.id, p.reportId))
    .get()
  if (!row || row.r.deletedAt) return
  const { r, project } = row
  const accountId = project.accountId
  const actor = p.actorId ? (tx.select({ name: users.name, displayName: users.displayName }).from(users).where(eq(users.id, p.actorId)).get() ?? null) : null
  const who = actor ? (actor.displayName ?? actor.name) : null
  const ref = `#${r.reportNumber} ${r.title}`
  const tag = `[${project.name}]`
  const link = { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, project.slug, r.reportNumber) }
  const followers = () => {
    const ids = tx.select({ id: reportSubscriptions.userId }).from(reportSubscriptions).where(eq(reportSubscriptions.reportId, r.id)).all().map((s) => s.id)
    return r.assignedTo ? [...new Set([...ids, r.assignedTo])] : ids
  }

  if (p.type === 'bug_created') {
    const to = recipientsFor(tx, { accountId, projectId: r.projectId, userIds: 'all', preference: 'email_bug_created', exceptId: p.actorId })
    mailEach(deps, tx, to, 'email_bug_created', () => ({
      subject: `${tag} New report #${r.reportNumber}: ${r.title}`,
      intro: `${who ?? 'A player'} filed a new report in ${project.name}.`,
      body: [ref, `Priority: ${r.priority} · Category: ${r.category}${r.platform ? ` · Platform: ${r.platform}` : ''}`, r.description.slice(0, 500)],
      link,
    }))
    return
  }

  if (p.type === 'comment_added' && p.comment) {
    const to = recipientsFor(tx, { accountId, projectId: r.projectId, userIds: followers(), preference: 'email_bug_commented', exceptId: p.actorId })
    mailEach(deps, tx, to, 'email_bug_commented', () => ({
      subject: `${tag} New comment on #${r.reportNumber}: ${r.title}`,
      intro: `${p.comment!.author ?? who ?? 'Someone'} commented on ${ref}${p.comment!.internal ? ' (internal note)' : ''}:`,
      body: [p.comment!.body],
      link,
    }))
    return
  }

  const assigned = p.assignee && p.assignee !== p.actorId ? recipientsFor(tx, { accountId, projectId: r.projectId, userIds: [p.assignee], preference: 'email_bug_assigned' }) : []
  mailEach(deps, tx, assigned, 'email_bug_assigned', () => ({
    subject: `${tag} You were assigned #${r.reportNumber}: ${r.title}`,
    intro: `${who ?? 'Someone'} assigned ${ref} to you.`,
    body: [`Status: ${statusLabel(r.status)} · Priority: ${r.priority}`],
    link,
  }))
  if (!p.status) return
  const [from, to] = p.status
  // Whoever just got the assignment mail (which shows the status) gets no second mail.
  const candidates = followers().filter((id) => !assigned.some((a) => a.id === id))
  mailEach(deps, tx, recipientsFor(tx, { accountId, projectId: r.projectId, userIds: candidates, preference: 'email_bug_status', exceptId: p.actorId }), 'email_bug_status', () => ({
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
    deps.db.transaction((tx) => {
      if (claimOnce(tx, ctx.jobId, deps.clock.now())) fanOut(deps, tx, payload)
    })
  },
})
