import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import type { Account } from '../auth/accounts.repository'
import { requireFeature } from '../auth/plans'
import { MAX_EVENT_DATA_BYTES, type EventInput } from './sdk.schemas'
import { createSdkRepository, type NewEvent } from './sdk.repository'

/** Dictionary ids kept in memory at most; past it the cache starts over (committed ids never change). */
const NAME_CACHE_LIMIT = 10_000

/** The SDK repository the events go through, with a cache of the committed name dictionary (its rows never change). */
export function createEventsRepository(db: Seam) {
  return { nameIds: new Map<string, number>(), sdk: createSdkRepository({ db }) }
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
  const { sdk } = repo
  const learnt = await writes.write(async () => {
    const keyOf = (name: string) => `${project.id}\u0000${name}`
    const unknown = [...new Set(batch.map((e) => e.event_name).filter((name) => !repo.nameIds.has(keyOf(name))))]
    const known = unknown.length ? await sdk.eventNameIds(project.id, unknown) : new Map<string, number>()
    const added = await sdk.insertEventNames(project.id, unknown.filter((name) => !known.has(name)))
    const fresh = new Map([...known, ...added].map(([name, id]) => [keyOf(name), id]))
    const rows: NewEvent[] = batch.map((e, i) => ({
      nameId: repo.nameIds.get(keyOf(e.event_name)) ?? fresh.get(keyOf(e.event_name))!,
      createdAt,
      sessionToken: e.session_token ?? null,
      platform: e.platform ?? null,
      gameVersion: e.game_version ?? null,
      data: data[i] ?? null,
    }))
    await sdk.insertEvents(rows)
    return fresh
  })
  for (const [key, id] of learnt) {
    if (repo.nameIds.size >= NAME_CACHE_LIMIT) repo.nameIds.clear()
    repo.nameIds.set(key, id)
  }
  return { tracked: batch.length }
}
