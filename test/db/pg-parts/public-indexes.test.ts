// The public tracker's partial indexes (public.indexes.ts, and their PostgreSQL form public.indexes.pg.ts):
// the same columns, in the same order, under the same predicate on both engines.
import { expect, it } from 'vitest'
import { PUBLIC_TRACKER_INDEX, PUBLISHED_INDEX } from '../../../src/modules/public/public.indexes'
import { onBothEngines, type RawEngine } from '../../helpers/raw-engines'

/** The index's columns in key order and its predicate, read from the engine's catalog (predicate without spaces, parentheses or casts). */
async function indexShape(e: Omit<RawEngine, 'close'>, name: string) {
  if (e.name === 'sqlite') {
    const columns = await e.rows<{ name: string }>(`SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`)
    const [def] = await e.rows<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = '${name}'`)
    return { columns: columns.map((c) => c.name), where: def?.sql.replace(/^[\s\S]*\bWHERE\b/i, '') }
  }
  const columns = await e.rows<{ name: string }>(`SELECT a.attname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN unnest(i.indkey) WITH ORDINALITY k(attnum, ord) ON true JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
    WHERE c.relname = '${name}' ORDER BY k.ord`)
  const [def] = await e.rows<{ where: string }>(`SELECT pg_get_expr(i.indpred, i.indrelid) AS where FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '${name}'`)
  return { columns: columns.map((c) => c.name), where: def?.where }
}
const normalised = (where: string | undefined) => where?.replace(/::\w+|[()\s]/g, '').toLowerCase()

onBothEngines('the public tracker indexes', (e) => {
  it.each([
    [PUBLIC_TRACKER_INDEX, ['project_id', 'upvotes', 'seq', 'status', 'category', 'published', 'triaged_at', 'auto_filed'], 'deleted_atisnullandis_private=0'],
    [PUBLISHED_INDEX, ['project_id', 'upvotes', 'seq', 'status', 'category'], 'deleted_atisnullandis_private=0andpublished=1'],
  ])('has %s over its columns, partial on live public reports', async (name, columns, where) => {
    const shape = await indexShape(e, name)
    expect({ columns: shape.columns, where: normalised(shape.where) }).toEqual({ columns, where })
  })
})
