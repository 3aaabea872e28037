import { and, eq, isNull } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import type { EventSubscriber } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { hmacSha256Hex, safeEqual } from '../../lib/ids'
import { comments } from '../comments/comments.table'
import { renderMail } from '../notifications/notifications.mail'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { readSettings } from '../settings/settings.service'
import { replyMailOptOuts } from './public.table'
import { isPublicReport } from './publication'
import { serverSecret } from './server-secrets'

/**
 * Reply mail (issue 25): when a team member comments publicly on a report, the player who filed it
 * gets one mail with the reply, a link to the public report (when the tracker shows it) and an
 * unsubscribe link that needs no account. Sent when the report has the player's address
 * (`reporter_email`) and they have not unsubscribed from the project's reply mails.
 */
export const REPLY_MAIL_JOB = 'public.reply_mail'

/** The longest reply quoted in the mail; the rest is on the report page. */
const QUOTE_CHARS = 4000

const secretOf = (db: DbOrTx, now: Date) => serverSecret(db, 'reply_mail_unsubscribe', now)
const claimOf = (projectId: string, email: string) => `reply-optout:${projectId}:${email.trim().toLowerCase()}`

/** A token naming a project and an address, signed so nobody can unsubscribe someone else. */
export function replyUnsubscribeToken(db: DbOrTx, now: Date, projectId: string, email: string): string {
  const claim = claimOf(projectId, email)
  return `${Buffer.from(claim).toString('base64url')}.${hmacSha256Hex(secretOf(db, now), claim)}`
}

/** The project and address of a valid token, else null. */
export function readReplyUnsubscribeToken(db: DbOrTx, now: Date, token: string): { projectId: string; email: string } | null {
  const [encoded, mac] = token.split('.')
  if (!encoded || !mac) return null
  const claim = Buffer.from(encoded, 'base64url').toString()
  const m = /^reply-optout:([^:]+):(.+)$/.exec(claim)
  if (!m || !safeEqual(mac, hmacSha256Hex(secretOf(db, now), claim))) return null
  return { projectId: m[1]!, email: m[2]! }
}

/** Records the opt-out a token names (again: no change); returns the project's name, or null for a bad token. */
export function unsubscribeFromReplies(deps: Pick<AppDeps, 'db' | 'clock'>, token: string): { projectName: string } | null {
  const claim = readReplyUnsubscribeToken(deps.db, deps.clock.now(), token)
  const project = claim && deps.db.select({ name: projects.name }).from(projects).where(eq(projects.id, claim.projectId)).get()
  if (!claim || !project) return null
  deps.db.insert(replyMailOptOuts).values({ projectId: claim.projectId, email: claim.email, createdAt: deps.clock.now() }).onConflictDoNothing().run()
  return { projectName: project.name }
}

/** Enqueues the reply mail of each public comment a team member adds, in the comment's transaction. */
export const replyMailSubscriber =
  (deps: Pick<AppDeps, 'jobs'>): EventSubscriber =>
  (tx, event) => {
    if (event.type !== 'comment_added' || !event.actorId || event.data.is_internal !== false) return
    const commentId = String(event.data.id)
    deps.jobs.enqueue(tx, { kind: REPLY_MAIL_JOB, payload: { commentId }, idempotencyKey: `reply-mail:${commentId}` })
  }

/** Renders and sends one reply mail through the mailer (its outbox and delivery job); skips what no longer applies. */
export function replyMailHandler(deps: Pick<AppDeps, 'db' | 'config' | 'mailer' | 'clock'>): JobHandler<{ commentId: string }> {
  return {
    kind: REPLY_MAIL_JOB,
    async run({ commentId }) {
      const { db, config } = deps
      const row = db
        .select({ body: comments.body, isInternal: comments.isInternal, report: reports, projectName: projects.name, slug: projects.slug })
        .from(comments)
        .innerJoin(reports, eq(reports.id, comments.reportId))
        .innerJoin(projects, eq(projects.id, reports.projectId))
        .where(and(eq(comments.id, commentId), isNull(reports.deletedAt)))
        .get()
      const to = row?.report.reporterEmail?.trim()
      if (!row || row.isInternal || !to) return
      const optedOut = db
        .select({ email: replyMailOptOuts.email })
        .from(replyMailOptOuts)
        .where(and(eq(replyMailOptOuts.projectId, row.report.projectId), eq(replyMailOptOuts.email, to.toLowerCase())))
        .get()
      if (optedOut) return
      const tracker = readSettings(db, row.report.projectId, 'tracker')
      const shown = tracker.enabled && isPublicReport(db, row.report.projectId, tracker, eq(reports.id, row.report.id))
      const r = row.report
      const quote = row.body.length > QUOTE_CHARS ? `${row.body.slice(0, QUOTE_CHARS)}…` : row.body
      const token = replyUnsubscribeToken(db, deps.clock.now(), r.projectId, to)
      const mail = renderMail({
        to,
        subject: `Re: #${r.reportNumber} ${r.title} · ${row.projectName}`,
        intro: `The ${row.projectName} team replied to your report #${r.reportNumber} “${r.title}”:`,
        body: [quote],
        link: shown ? { label: 'See the report and the whole conversation', url: `${config.publicUrl}/tracker/${encodeURIComponent(row.slug)}/${r.reportNumber}` } : undefined,
        unsubscribe: {
          reason: `You get this because you left your address with a report to ${row.projectName}.`,
          url: `${config.publicUrl}/replies/unsubscribe?token=${encodeURIComponent(token)}`,
        },
      })
      db.transaction((tx) => deps.mailer.send(tx, mail))
    },
  }
}
