import type { AppDeps } from '../../app-deps'
import type { StoredFile } from '../../files/storage'
import type { JobHandler } from '../../jobs/jobs.types'
import { ingest } from '../ingest/ingest.service'
import { createIngestRepository } from '../ingest/ingest.repository'
import { createProjectsRepository, type Project } from '../projects/projects.repository'
import { isPublicReport } from '../public/public.service'
import { widgetSuggestions } from '../public/suggestions.service'
import { createReportsRepository } from '../reports/reports.repository'
import { MAX_BASE64_FILE_BYTES } from '../sdk/sdk.schemas'
import { settingsOf } from '../settings/settings.service'
import { DISCORD_TIMEOUT_MS, editOriginalResponse, fetchAttachment } from './discord.client'
import type { InteractionContext, PlayerAttachment } from './discord-interaction'
import { duplicateSuggestions, MAX_SUGGESTIONS, thanksEdit } from './discord-report-messages'
import type { DiscordSubmissionRow } from './discord.repository'
import { discord } from './discord.service'

export const FILE_KIND = 'discord.file'

/** A form as it waits in discord_submissions.payload: what the player wrote, who and where, and the token that edits our answer. */
export interface HeldForm extends InteractionContext {
  title: string
  description: string
  steps: string | null
  attachments: PlayerAttachment[]
  /** The player chose "send my report" over the suggestions. */
  force?: boolean
}

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'events' | 'files' | 'logger'>

/** The event id that makes a retried filing of the same form a no-op in ingest. */
const eventIdOf = (interactionId: string) => `discord:${interactionId}`

/** The report's page on the public tracker, when the tracker shows it; null otherwise. */
export async function publicReportUrl(deps: Pick<AppDeps, 'db' | 'config'>, project: Project, report: { id: string; number: number }): Promise<string | null> {
  const tracker = await settingsOf(deps.db, project.id, 'tracker')
  if (!tracker.enabled || !(await isPublicReport(deps, project.id, tracker, { id: report.id }))) return null
  return `${deps.config.publicUrl}/tracker/${encodeURIComponent(project.slug)}/${report.number}`
}

/**
 * The player's screenshots, fetched from Discord's attachment host only and stored with the usual
 * checks (size, and that the bytes are an image). One that fails is left out and logged: the report
 * itself still counts more than its picture.
 */
async function storeScreenshots(deps: Deps, form: HeldForm): Promise<StoredFile[]> {
  const stored: StoredFile[] = []
  for (const a of form.attachments) {
    try {
      const bytes = await fetchAttachment(deps.config, a, MAX_BASE64_FILE_BYTES)
      stored.push(await deps.files.store(deps.db, { data: bytes, fileName: a.filename, declaredType: a.content_type, kind: 'image', maxBytes: MAX_BASE64_FILE_BYTES }))
    } catch (err) {
      deps.logger.warn('discord screenshot left out', { interaction: form.interactionId, error: err instanceof Error ? err.message : String(err) })
    }
  }
  return stored
}

/** Files the form through the one ingest path; on a retry after ingest took it, the report it became. */
async function fileForm(deps: Deps, project: Project, row: DiscordSubmissionRow, form: HeldForm): Promise<{ id: string; number: number }> {
  const screenshots = await storeScreenshots(deps, form)
  const result = await ingest(deps, {
    project,
    kind: 'player',
    source: 'discord',
    title: form.title,
    description: form.description,
    stepsToReproduce: form.steps,
    playerId: `discord:${form.user.id}`,
    reporterName: form.user.global_name ?? form.user.username,
    metadata: { discord: { user_id: form.user.id, username: form.user.username, guild_id: form.guild_id, channel_id: form.channel_id, locale: form.locale } },
    client: 'discord',
    eventId: eventIdOf(row.interactionId),
    screenshot: screenshots[0] ?? null,
    attachments: screenshots.slice(1),
  })
  if (result) return { id: result.report.id, number: result.report.number }
  const occurrence = await createIngestRepository({ db: deps.db }).ofEvent(project.id, eventIdOf(row.interactionId))
  const report = occurrence && (await createReportsRepository({ db: deps.db }).byId(occurrence.reportId))
  if (!report) throw new Error('the form was taken in before but its report is gone')
  return { id: report.id, number: report.reportNumber }
}

/**
 * The `discord.file` job, queued by the form: offers up to three similar public reports as +1
 * buttons (unless the player already chose to send theirs), else files the report and edits the
 * deferred answer into "Thanks — report #N". A refused edit is thrown and retried; ingest takes
 * the form once whatever the retries.
 */
export function fileHandler(deps: Deps): JobHandler<{ interactionId: string }> {
  return {
    kind: FILE_KIND,
    timeoutMs: DISCORD_TIMEOUT_MS * 6,
    async run({ interactionId }) {
      const repo = discord(deps)
      const row = await repo.submission(interactionId)
      // `suggested` again: a retry after the edit offering the suggestions failed.
      if (!row || row.status === 'command' || row.status === 'voted') return
      const project = await createProjectsRepository({ db: deps.db }).byId(row.projectId)
      if (!project) return
      const form = row.payload as unknown as HeldForm
      const edit = (body: unknown) => editOriginalResponse(deps.config, { applicationId: form.applicationId, token: form.token, body })
      if (row.status !== 'filed' && !form.force) {
        const similar = await widgetSuggestions(deps, deps.config, project, form.title)
        if (similar.can_vote && similar.bugs.length) {
          await repo.advance(interactionId, ['pending'], { status: 'suggested', updatedAt: deps.clock.now() })
          await edit(duplicateSuggestions({ reports: similar.bugs.slice(0, MAX_SUGGESTIONS), pendingKey: interactionId }))
          return
        }
      }
      const report = row.status === 'filed' && row.reportId && row.reportNumber ? { id: row.reportId, number: row.reportNumber } : await fileForm(deps, project, row, form)
      await repo.advance(interactionId, ['pending', 'suggested'], { status: 'filed', reportId: report.id, reportNumber: report.number, updatedAt: deps.clock.now() })
      await edit(thanksEdit({ reportNumber: report.number, url: await publicReportUrl(deps, project, report) }))
    },
  }
}
