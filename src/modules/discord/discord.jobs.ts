import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { DAY } from '../../lib/clock'
import { fileHandler } from './discord-filing'
import { replyHandler } from './discord-replies'
import { discord } from './discord.service'

/**
 * Filing a player's form (`discord.file`) and the status replies (`discord.reply`), each retried after
 * 1, 5, 25 and 125 minutes; daily, the forms that never became a report are dropped once a day old
 * (the hourly cap reads the last hour only, and Discord's interaction tokens last 15 minutes).
 */
export const discordJobs = (deps: AppDeps): DomainJobs => ({
  handlers: [fileHandler(deps), replyHandler(deps)],
  schedules: [{ name: 'discord.prune-forms', pattern: '53 3 * * *', yieldsToRequests: true, run: async () => void (await discord(deps).pruneUnfiled(new Date(deps.clock.now().getTime() - DAY))) }],
})
