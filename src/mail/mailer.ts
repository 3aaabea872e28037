import type { Db, Query } from '../db/client'
import type { JobQueue } from '../jobs/jobs.queue'
import type { JobHandler } from '../jobs/jobs.types'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { createMailRepository } from './mail.repository'

export interface Mail {
  to: string
  subject: string
  text: string
  html?: string
}

/** Sends one mail for real (SMTP); throwing makes the job retry. */
export interface MailTransport {
  send(mail: Mail & { from: string }): Promise<void>
}

export interface Mailer {
  /** Whether mail leaves the server (an SMTP transport is set up); without one it only reaches the outbox and the log. */
  configured: boolean
  /** Records the mail and queues its delivery in the caller's transaction. */
  send(tx: Query, mail: Mail): Promise<void>
  /** The job handler that delivers queued mail. */
  handler: JobHandler<{ outboxId: number }>
}

const LINK_RE = /https?:\/\/\S+/g

/**
 * Mail goes through the outbox table and the job queue, so a down SMTP server delays mail and
 * loses none. Without a transport (no GLITCHBOX_SMTP_URL) mail stays in the outbox and its links
 * are logged, so an operator can still verify addresses and accept invitations.
 */
export function createMailer(opts: { db: Db; jobs: JobQueue; clock: Clock; logger: Logger; from: string; transport: MailTransport | null }): Mailer {
  const { clock, logger, transport } = opts
  const repo = createMailRepository({ db: opts.db })
  return {
    configured: transport !== null,
    async send(tx, mail) {
      const outboxId = await createMailRepository({ db: tx }).insert({ ...mail, html: mail.html ?? null, status: transport ? 'queued' : 'kept', createdAt: clock.now() })
      if (transport) await opts.jobs.enqueue(tx, { kind: 'mail.send', payload: { outboxId }, maxAttempts: 8 })
      else logger.info('mail kept in outbox (no SMTP configured)', { to: mail.to, subject: mail.subject, links: mail.text.match(LINK_RE) ?? [] })
    },
    handler: {
      kind: 'mail.send',
      timeoutMs: 60_000,
      async run({ outboxId }) {
        const row = await repo.find(outboxId)
        if (!row || row.status !== 'queued' || !transport) return
        await transport.send({ from: opts.from, to: row.to, subject: row.subject, text: row.text, html: row.html ?? undefined })
        await repo.markSent(outboxId, clock.now())
      },
    },
  }
}
