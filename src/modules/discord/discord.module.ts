import type { DomainModule } from '../module'
import { discordRepliesSubscriber } from './discord-replies'
import { discordJobs } from './discord.jobs'
import { discordRoutes } from './discord.routes'

export const discordModule: DomainModule = {
  name: 'discord',
  routes: discordRoutes,
  jobs: discordJobs,
  subscribe: (deps) => deps.events.subscribe(discordRepliesSubscriber(deps)),
}
