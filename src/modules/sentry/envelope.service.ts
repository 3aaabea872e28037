import type { AppDeps } from '../../app-deps'
import type { Project } from '../projects/projects.repository'
import { randomToken } from '../../lib/ids'
import { chargeUpload } from '../auth/quota'
import { ingest } from '../ingest/ingest.service'
import { insertAttachmentRows } from '../ingest/ingest-files'
import { createIngestRepository } from '../ingest/ingest.repository'
import { clientOf, submissionOfEvent } from './event.adapter'
import { fileFeedback } from './feedback.service'
import { readMinidump, withMinidump } from './minidump.adapter'
import { symbolicateMinidump } from './minidump-symbols'
import { mapJsEvent } from './js-source-maps'
import { type Envelope, type EnvelopeItem, mapSentryEvent, parseFeedback, parseSessionAggregates, parseSessionUpdate, type SentrySessionAggregate, type SentrySessionUpdate } from './protocol'
import { recordSentrySessions } from './sessions.service'
import { storeCrashFiles } from './sentry-files'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'events' | 'files' | 'config' | 'logger'>

/** An id for an answer when the client sent none: 32 hex digits, as Sentry's. */
const newEventId = () => Buffer.from(randomToken(16), 'base64url').toString('hex').padEnd(32, '0').slice(0, 32)

const isScreenshot = (a: EnvelopeItem) => /^screenshot/i.test(a.filename ?? '') && (!a.contentType || a.contentType.startsWith('image/'))

/**
 * What an envelope's items become (CONTRACT.md "Sentry SDKs"), each through the same services as
 * Glitchbox's own clients: the `event` with its `attachment` items (screenshot, minidump, view
 * hierarchy, files) is one submission to ingest; attachments sent without their event join the
 * occurrence of the event id they name; `feedback` and `user_report` are player reports; `session`
 * and `sessions` are play sessions. Every other item type is read past and dropped. An envelope
 * whose event the project took in before (an SDK's retry) changes nothing. Returns the event id
 * Sentry's clients expect in the answer.
 */
export async function ingestEnvelope(deps: Deps, project: Project, envelope: Envelope): Promise<string> {
  const { items } = envelope
  const event = items.find((i) => i.type === 'event' && i.json)
  const eventId = envelope.header.eventId ?? (event ? mapSentryEvent(event.json).eventId : null) ?? newEventId()
  const attachments = items.filter((i) => i.type === 'attachment')
  const client = clientOf(envelope.header.sdk)
  if (event && !(await fileEvent(deps, project, event, attachments, eventId))) return eventId
  if (!event && attachments.length && envelope.header.eventId) await attachToEvent(deps, project, envelope.header.eventId, attachments)
  for (const item of items) {
    if ((item.type === 'feedback' || item.type === 'user_report') && item.json) {
      const feedback = parseFeedback(item.type, item.json)
      if (feedback) await fileFeedback(deps, project, feedback, client)
    }
  }
  const updates: SentrySessionUpdate[] = []
  const aggregates: SentrySessionAggregate[] = []
  for (const item of items) {
    if (item.type === 'session' && item.json) {
      const update = parseSessionUpdate(item.json)
      if (update) updates.push(update)
    }
    if (item.type === 'sessions' && item.json) aggregates.push(...parseSessionAggregates(item.json))
  }
  await recordSentrySessions(deps, project, updates, aggregates)
  return eventId
}

/** The event with its files: the screenshot, the minidump (read to describe a native crash) and the rest. False when the project had it already. */
async function fileEvent(deps: Deps, project: Project, item: EnvelopeItem, attachments: EnvelopeItem[], eventId: string): Promise<boolean> {
  const mapped = mapSentryEvent(item.json ? await mapJsEvent(deps, project.id, item.json) : item.json)
  const shot = attachments.find(isScreenshot)
  const screenshot = shot ? (await storeCrashFiles(deps, [{ fileName: shot.filename ?? 'screenshot.png', bytes: shot.payload, contentType: shot.contentType }], 'image'))[0] : undefined
  const others = attachments.filter((a) => a !== shot)
  const files = await storeCrashFiles(deps, others.map((a) => ({ fileName: a.filename ?? 'attachment', bytes: a.payload, contentType: a.contentType }))).catch(async (err: unknown) => {
    if (screenshot) await deps.files.remove(deps.db, [screenshot.key])
    throw err
  })
  let submission = submissionOfEvent(project, { ...mapped, eventId: mapped.eventId ?? eventId }, { screenshot, attachments: files })
  const dump = others.find((a) => a.attachmentType === 'event.minidump')
  if (dump) {
    try {
      submission = withMinidump(submission, readMinidump(dump.payload), await symbolicateMinidump(deps, project.id, dump.payload))
    } catch {
      // An unreadable dump is still kept as a file; the event is filed as it came.
    }
  }
  return (await ingest(deps, submission)) !== null
}

/** Attachments an SDK sent after their event (in an envelope of their own): they join that event's occurrence when Glitchbox has it. */
async function attachToEvent(deps: Deps, project: Project, eventId: string, attachments: EnvelopeItem[]): Promise<void> {
  const occurrence = await createIngestRepository({ db: deps.db }).ofEvent(project.id, eventId)
  if (!occurrence) return
  const files = await storeCrashFiles(deps, attachments.map((a) => ({ fileName: a.filename ?? 'attachment', bytes: a.payload, contentType: a.contentType })))
  if (!files.length) return
  try {
    await deps.db.write(async (tx) => {
      await chargeUpload(tx, project.accountId, files.reduce((n, f) => n + f.size, 0))
      await insertAttachmentRows(tx, { id: occurrence.reportId, projectId: project.id, occurrenceId: occurrence.id }, files, deps.clock.now())
    })
  } catch (err) {
    await deps.files.remove(deps.db, files.map((f) => f.key))
    throw err
  }
}
