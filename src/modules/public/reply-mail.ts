import type { AppDeps } from '../../app-deps'
import type { EventSubscriber } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { hmacSha256Hex, safeEqual } from '../../lib/ids'
import { createCommentsRepository } from '../comments/comments.repository'
import { renderMail } from '../notifications/notifications.mail'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { settingsOf } from '../settings/settings.service'
import { createPublicRepository } from './public.repository'
import { isPublicReport } from './public.service'
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

const secretOf = (deps: Pick<AppDeps, 'db'>, now: Date) => serverSecret(deps, 'reply_mail_unsubscribe', now)
const claimOf = (projectId: string, email: string) => `reply-optout:${projectId}:${email.trim().toLowerCase()}`

/** A token naming a project and an address, signed so nobody can unsubscribe someone else. */
export async function replyUnsubscribeToken(deps: Pick<AppDeps, 'db'>, now: Date, projectId: string, email: string): Promise<string> {
  const claim = claimOf(projectId, email)
  return `${Buffer.from(claim).toString('base64url')}.${hmacSha256Hex(await secretOf(deps, now), claim)}`
}

/** The project and address of a valid token, else null. */
export async function readReplyUnsubscribeToken(deps: Pick<AppDeps, 'db'>, now: Date, token: string): Promise<{ projectId: string; email: string } | null> {
  const [encoded, mac] = token.split('.')
  if (!encoded || !mac) return null
  const claim = Buffer.from(encoded, 'base64url').toString()
  const m = /^reply-optout:([^:]+):(.+)$/.exec(claim)
  if (!m || !safeEqual(mac, hmacSha256Hex(await secretOf(deps, now), claim))) return null
  return { projectId: m[1]!, email: m[2]! }
}

/** Records the opt-out a token names (again: no change); returns the project's name, or null for a bad token. */
export async function unsubscribeFromReplies(deps: Pick<AppDeps, 'db' | 'clock'>, token: string): Promise<{ projectName: string } | null> {
  const claim = await readReplyUnsubscribeToken(deps, deps.clock.now(), token)
  const project = claim && (await createProjectsRepository({ db: deps.db }).byId(claim.projectId))
  if (!claim || !project) return null
  await createPublicRepository({ db: deps.db }).optOut({ projectId: claim.projectId, email: claim.email, createdAt: deps.clock.now() })
  return { projectName: project.name }
}

/** Enqueues the reply mail of each public comment a team member adds, in the comment's transaction. */
export const replyMailSubscriber =
  (deps: Pick<AppDeps, 'jobs'>): EventSubscriber =>
  async (tx, event) => {
    if (event.type !== 'comment_added' || !event.actorId || event.data.is_internal !== false) return
    const commentId = String(event.data.id)
    await deps.jobs.enqueue(tx, { kind: REPLY_MAIL_JOB, payload: { commentId }, idempotencyKey: `reply-mail:${commentId}` })
  }

/** Renders and sends one reply mail through the mailer (its outbox and delivery job); skips what no longer applies. */
export function replyMailHandler(deps: Pick<AppDeps, 'db' | 'config' | 'mailer' | 'clock'>): JobHandler<{ commentId: string }> {
  return {
    kind: REPLY_MAIL_JOB,
    async run({ commentId }) {
      const { config } = deps
      const repo = createPublicRepository({ db: deps.db })
      const comment = await createCommentsRepository({ db: deps.db }).find(commentId)
      const r = comment && !comment.isInternal ? await createReportsRepository({ db: deps.db }).byId(comment.reportId) : undefined
      const to = r?.reporterEmail?.trim()
      if (!comment || !r || r.deletedAt || !to) return
      const project = await createProjectsRepository({ db: deps.db }).byId(r.projectId)
      if (!project || (await repo.optedOut(r.projectId, to.toLowerCase()))) return
      const tracker = await settingsOf(deps.db, r.projectId, 'tracker')
      const shown = tracker.enabled && (await isPublicReport(deps, r.projectId, tracker, { id: r.id }))
      const quote = comment.body.length > QUOTE_CHARS ? `${comment.body.slice(0, QUOTE_CHARS)}…` : comment.body
      const token = await replyUnsubscribeToken(deps, deps.clock.now(), r.projectId, to)
      const mail = renderMail({
        to,
        subject: `Re: #${r.reportNumber} ${r.title} · ${project.name}`,
        intro: `The ${project.name} team replied to your report #${r.reportNumber} “${r.title}”:`,
        body: [quote],
        link: shown ? { label: 'See the report and the whole conversation', url: `${config.publicUrl}/tracker/${encodeURIComponent(project.slug)}/${r.reportNumber}` } : undefined,
        unsubscribe: {
          reason: `You get this because you left your address with a report to ${project.name}.`,
          url: `${config.publicUrl}/replies/unsubscribe?token=${encodeURIComponent(token)}`,
        },
      })
      await deps.db.write((tx) => deps.mailer.send(tx, mail))
    },
  }
}
