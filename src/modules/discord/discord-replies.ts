import type { AppDeps } from '../../app-deps'
import type { EventSubscriber } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { createProjectsRepository } from '../projects/projects.repository'
import { DISCORD_TIMEOUT_MS, postChannelMessage } from './discord.client'
import { publicReportUrl } from './discord-filing'
import { statusReply } from './discord-report-messages'
import { createDiscordRepository } from './discord.repository'
import { botTokenOf, discord } from './discord.service'

export const REPLY_KIND = 'discord.reply'
/** The first try and the retries after 1, 5, 25 and 125 minutes (spec 4.7), as other integrations. */
const REPLY_ATTEMPTS = 5
/** The statuses a player hears about; going back to open is the team's business. */
const ANNOUNCED = new Set(['in_progress', 'resolved', 'wont_fix', 'closed'])

/**
 * The event subscriber: in the writer's transaction, when a report filed from Discord changes to
 * a status players care about and the studio turned replies on, one reply job.
 */
export function discordRepliesSubscriber(deps: Pick<AppDeps, 'jobs' | 'clock'>): EventSubscriber {
  return async (tx, event) => {
    const status = event.changes?.status as [string, string] | undefined
    if (event.type !== 'bug_updated' || !status || !ANNOUNCED.has(status[1])) return
    const repo = createDiscordRepository({ db: tx })
    const app = await repo.appOf(event.projectId)
    if (!app?.repliesEnabled) return
    const form = await repo.filedAs(event.reportId)
    if (!form) return
    const at = deps.clock.now().getTime()
    await deps.jobs.enqueue(tx, { kind: REPLY_KIND, payload: { interactionId: form.interactionId, status: status[1] }, idempotencyKey: `${REPLY_KIND}:${form.interactionId}:${status[1]}:${at}`, maxAttempts: REPLY_ATTEMPTS })
  }
}

/** The `discord.reply` job: the bot's one-line message mentioning the player; a refusal is thrown and retried. */
export function replyHandler(deps: Pick<AppDeps, 'db' | 'config' | 'secrets'>): JobHandler<{ interactionId: string; status: string }> {
  return {
    kind: REPLY_KIND,
    timeoutMs: DISCORD_TIMEOUT_MS + 2_000,
    maxAttempts: REPLY_ATTEMPTS,
    async run({ interactionId, status }) {
      const repo = discord(deps)
      const form = await repo.submission(interactionId)
      const app = form && (await repo.appOf(form.projectId))
      // Disconnected, or replies turned off, since it was queued.
      if (!form?.reportNumber || !app?.repliesEnabled) return
      const channelId = app.replyChannelId ?? form.channelId
      if (!channelId) return
      const project = await createProjectsRepository({ db: deps.db }).byId(form.projectId)
      const url = project && form.reportId ? await publicReportUrl(deps, project, { id: form.reportId, number: form.reportNumber }) : null
      const title = String((form.payload as { title?: unknown }).title ?? '')
      await postChannelMessage(deps.config, { channelId, botToken: await botTokenOf(deps, app), body: statusReply({ userId: form.userId, reportNumber: form.reportNumber, title, status, url }) })
    },
  }
}
