import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { fileHandler } from './discord-filing'
import { replyHandler } from './discord-replies'

/** Filing a player's form (`discord.file`) and the status replies (`discord.reply`), each retried after 1, 5, 25 and 125 minutes. */
export const discordJobs = (deps: AppDeps): DomainJobs => ({ handlers: [fileHandler(deps), replyHandler(deps)] })
