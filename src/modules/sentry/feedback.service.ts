import type { AppDeps } from '../../app-deps'
import type { Project } from '../projects/projects.repository'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { createCommentsRepository } from '../comments/comments.repository'
import { createIngestRepository } from '../ingest/ingest.repository'
import { ingest } from '../ingest/ingest.service'
import { createReportsRepository } from '../reports/reports.repository'
import type { SentryFeedback } from './protocol'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'events' | 'files' | 'config'>

/** The live report holding the occurrence a Sentry event id names, or undefined. */
export async function reportOfEvent(db: Deps['db'], projectId: string, eventId: string): Promise<{ id: string; number: number } | undefined> {
  const occurrence = await createIngestRepository({ db }).ofEvent(projectId, eventId)
  return occurrence && (await createReportsRepository({ db }).liveInProject(projectId, occurrence.reportId))
}

/** A title from the player's words: their first line, at most 100 characters. */
function titleOf(message: string): string {
  const line = message.split('\n').find((l) => l.trim())?.trim() ?? 'Player feedback'
  return line.length > 100 ? `${line.slice(0, 99)}…` : line
}

/**
 * Player feedback from a Sentry SDK (`feedback`, `user_report`) becomes a player's report, through
 * the one ingest path. When it names an event Glitchbox has, the two are linked: the feedback report
 * records which report it is about (`feedback_for`, shown on both) and that report gets an internal
 * comment quoting the player, so the team reading the crash sees what the player said.
 */
export async function fileFeedback(deps: Deps, project: Project, f: SentryFeedback, client: string): Promise<void> {
  const about = f.associatedEventId ? await reportOfEvent(deps.db, project.id, f.associatedEventId) : undefined
  const filed = await ingest(deps, {
    project,
    kind: 'player',
    title: titleOf(f.message),
    description: about ? `${f.message}\n\n(About report #${about.number}.)` : f.message,
    reporterName: f.name,
    reporterEmail: f.email,
    gameVersion: f.gameVersion,
    metadata: { feedback: { associated_event_id: f.associatedEventId, url: f.url } },
    client,
  })
  if (!about || !filed.created) return
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createReportsRepository({ db: tx }).setFeedbackFor(filed.report.id, about.id)
    const who = f.name ?? f.email ?? 'A player'
    await createCommentsRepository({ db: tx }).insert({
      id: newId(),
      reportId: about.id,
      projectId: project.id,
      authorId: null,
      body: `${who} sent feedback about this crash (report #${filed.report.number}):\n\n> ${f.message.replace(/\n/g, '\n> ')}`,
      isInternal: true,
      createdAt: now,
      updatedAt: now,
    })
    await recordActivity(tx, now, [{ projectId: project.id, reportId: about.id, actorId: null, action: 'feedback', newValue: filed.report.number }])
  })
}
