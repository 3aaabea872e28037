import type { DomainModule } from '../module'
import { publicTrackerIndexSql } from './public.indexes'
import { publicTrackerIndexPgSql } from './public.indexes.pg'
import { PUBLICATION_MIGRATION, publicationBackfill } from './publication.backfill'
import { publicRoutes } from './public.routes'
import { replyMailHandler, replyMailSubscriber } from './reply-mail'

export const publicModule: DomainModule = {
  name: 'public',
  routes: publicRoutes,
  jobs: (deps) => ({ handlers: [replyMailHandler(deps)] }),
  subscribe: (deps) => deps.events.subscribe(replyMailSubscriber(deps)),
  database: { sql: publicTrackerIndexSql, afterMigration: [{ tag: PUBLICATION_MIGRATION, backfill: publicationBackfill }], postgres: { sql: publicTrackerIndexPgSql } },
}
