import { and, eq, getTableName, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Statement } from 'bun:sqlite'
import { type Db, rawSqlite } from '../../db/client'
import { badRequest } from '../../http/errors'
import type { Account, Project } from '../../http/auth.plugin'
import { requireFeature } from '../billing/plans'
import { MAX_EVENT_DATA_BYTES, type EventInput } from './sdk.schemas'
import { eventNames, events } from './sdk.table'
import type { Seam } from '../../db/client'

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
    insertRows: multiRowInsert(db),
  }
}

type EventRow = [nameId: number, createdAt: number, sessionToken: string | null, platform: string | null, gameVersion: string | null, data: string | null]
const EVENT_COLUMNS = [events.nameId, events.createdAt, events.sessionToken, events.platform, events.gameVersion, events.data]

/**
 * A batch's rows in one INSERT (bound parameters, one statement per row count, prepared on first
 * use): one statement of 50 rows costs a third of 50 single-row inserts.
 */
function multiRowInsert(db: Db): (rows: EventRow[]) => void {
  const sqlite = rawSqlite(db)
  const byCount = new Map<number, Statement>()
  const head = `INSERT INTO "${getTableName(events)}" (${EVENT_COLUMNS.map((c) => `"${c.name}"`).join(', ')}) VALUES `
  const tuple = `(${EVENT_COLUMNS.map(() => '?').join(', ')})`
  return (rows) => {
    let st = byCount.get(rows.length)
    if (!st) byCount.set(rows.length, (st = sqlite.prepare(head + Array.from(rows, () => tuple).join(', '))))
    st.run(...(rows.flat() as string[]))
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
export async function trackEvents(deps: Pick<AppDeps, 'clock'>, repo: EventsRepository, writes: Seam, project: Project, account: Account, batch: EventInput[], batchField?: string) {
  requireFeature(account.plan, 'events')
  const data = batch.map((e, i) => dataText(e, batchField ? `${batchField}.${i}.event_data` : 'event_data'))
  const createdAt = deps.clock.now().getTime()
  // Ids learnt here enter the cache only once the transaction committed (a rolled-back insert's id is reused).
  const learnt = await writes.write(() => {
    const fresh = new Map<string, number>()
    const rows: EventRow[] = []
    batch.forEach((e, i) => {
      const cacheKey = `${project.id}\u0000${e.event_name}`
      let nameId = repo.nameIds.get(cacheKey) ?? fresh.get(cacheKey)
      if (nameId === undefined) {
        const params = { projectId: project.id, name: e.event_name }
        nameId = (repo.nameId.get(params) ?? repo.insertName.get(params)!).id
        fresh.set(cacheKey, nameId)
      }
      rows.push([nameId, createdAt, e.session_token ?? null, e.platform ?? null, e.game_version ?? null, data[i] ?? null])
    })
    repo.insertRows(rows)
    return fresh
  })
  for (const [key, id] of learnt) {
    if (repo.nameIds.size >= NAME_CACHE_LIMIT) repo.nameIds.clear()
    repo.nameIds.set(key, id)
  }
  return { tracked: batch.length }
}
