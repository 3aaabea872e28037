import { eq } from 'drizzle-orm'
import type { Db, DbOrTx } from '../db/client'
import type { JobQueue } from '../jobs/jobs.queue'
import type { JobHandler } from '../jobs/jobs.types'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { mailOutbox } from './mail.table'

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
  send(tx: DbOrTx, mail: Mail): void
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
  const { db, clock, logger, transport } = opts
  return {
    configured: transport !== null,
    send(tx, mail) {
      const [row] = tx
        .insert(mailOutbox)
        .values({ ...mail, html: mail.html ?? null, status: transport ? 'queued' : 'kept', createdAt: clock.now() })
        .returning({ id: mailOutbox.id })
        .all()
      if (transport) opts.jobs.enqueue(tx, { kind: 'mail.send', payload: { outboxId: row!.id }, maxAttempts: 8 })
      else logger.info('mail kept in outbox (no SMTP configured)', { to: mail.to, subject: mail.subject, links: mail.text.match(LINK_RE) ?? [] })
    },
    handler: {
      kind: 'mail.send',
      timeoutMs: 60_000,
      async run({ outboxId }) {
        const row = db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId)).get()
        if (!row || row.status !== 'queued' || !transport) return
        await transport.send({ from: opts.from, to: row.to, subject: row.subject, text: row.text, html: row.html ?? undefined })
        db.update(mailOutbox).set({ status: 'sent', sentAt: clock.now() }).where(eq(mailOutbox.id, outboxId)).run()
      },
    },
  }
}
