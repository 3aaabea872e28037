import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Db } from '../../db/client'
import { badRequest } from '../../http/errors'
import type { Account, Project } from '../../http/auth.plugin'
import { requireFeature } from '../billing/plans'
import { MAX_EVENT_DATA_BYTES, type EventInput } from './sdk.schemas'
import { eventNames, events } from './sdk.table'
import type { WriteBatcher } from './write-batcher'

const p = sql.placeholder

/** Dictionary ids kept in memory at most; past it the cache starts over (committed ids never change). */
const NAME_CACHE_LIMIT = 10_000

/** Prepared statements of telemetry ingestion, and a cache of the committed name dictionary (its rows never change). */
export function createEventsRepository(db: Db) {
  return {
    nameIds: new Map<string, number>(),
    nameId: db
      .select({ id: eventNames.id })
      .from(eventNames)
      .where(and(eq(eventNames.projectId, p('projectId')), eq(eventNames.name, p('name'))))
      .prepare(),
    insertName: db.insert(eventNames).values({ projectId: p('projectId'), name: p('name') }).returning({ id: eventNames.id }).prepare(),
    insert: db
      .insert(events)
      .values({ nameId: p('nameId'), createdAt: p('createdAt'), sessionToken: p('sessionToken'), platform: p('platform'), gameVersion: p('gameVersion'), data: p('data') })
      .prepare(),
  }
}

export type EventsRepository = ReturnType<typeof createEventsRepository>

/** `event_data` as stored: JSON text, null when absent or empty; 400 past 4 KB. */
function dataText(e: EventInput, field: string): string | null {
  if (!e.event_data) return null
  const text = JSON.stringify(e.event_data)
  if (text === '{}') return null
  if (Buffer.byteLength(text) > MAX_EVENT_DATA_BYTES) throw badRequest(`${field}: must be at most 4 KB as JSON`)
  return text
}

/**
 * Stores telemetry events (tier 2 and up) in one transaction; names go through the project's dictionary.
 * `batchField` names the array in error messages (`events.3.event_data`) when the events came as a batch.
 */
export async function trackEvents(deps: Pick<AppDeps, 'clock'>, repo: EventsRepository, writes: WriteBatcher, project: Project, account: Account, batch: EventInput[], batchField?: string) {
  requireFeature(account.plan, 'events')
  const data = batch.map((e, i) => dataText(e, batchField ? `${batchField}.${i}.event_data` : 'event_data'))
  const createdAt = deps.clock.now().getTime()
  // Ids learnt here enter the cache only once the transaction committed (a rolled-back insert's id is reused).
  const learnt = await writes.run(() => {
    const fresh = new Map<string, number>()
    batch.forEach((e, i) => {
      const cacheKey = `${project.id}\u0000${e.event_name}`
      let nameId = repo.nameIds.get(cacheKey) ?? fresh.get(cacheKey)
      if (nameId === undefined) {
        const params = { projectId: project.id, name: e.event_name }
        nameId = (repo.nameId.get(params) ?? repo.insertName.get(params)!).id
        fresh.set(cacheKey, nameId)
      }
      repo.insert.run({ nameId, createdAt, sessionToken: e.session_token ?? null, platform: e.platform ?? null, gameVersion: e.game_version ?? null, data: data[i] })
    })
    return fresh
  })
  for (const [key, id] of learnt) {
    if (repo.nameIds.size >= NAME_CACHE_LIMIT) repo.nameIds.clear()
    repo.nameIds.set(key, id)
  }
  return { tracked: batch.length }
}
