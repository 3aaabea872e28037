import type { DomainModule } from '../module'
import { publicRoutes } from './public.routes'
import { replyMailHandler, replyMailSubscriber } from './reply-mail'

export const publicModule: DomainModule = {
  name: 'public',
  routes: publicRoutes,
  jobs: (deps) => ({ handlers: [replyMailHandler(deps)] }),
  subscribe: (deps) => deps.events.subscribe(replyMailSubscriber(deps)),
}
