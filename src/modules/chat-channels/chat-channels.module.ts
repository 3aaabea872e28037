import type { DomainModule } from '../module'
import { chatChannelsSubscriber, postHandler } from './chat-channels.delivery'
import { chatChannelsRoutes } from './chat-channels.routes'

export const chatChannelsModule: DomainModule = {
  name: 'chat-channels',
  routes: chatChannelsRoutes,
  jobs: (deps) => ({ handlers: [postHandler(deps)] }),
  subscribe: (deps) => deps.events.subscribe(chatChannelsSubscriber(deps)),
}
