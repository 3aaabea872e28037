// Fails when the two engines' schemas differ: every table, column and index of the last SQLite
// migration snapshot (migrations/meta) must be in the last PostgreSQL one (migrations-pg/meta), and
// the reverse; and src/db/pg/schema.ts must be what scripts/db/pg-schema.ts makes of today's tables.
// A unique index may be a unique constraint on PostgreSQL (same name; see scripts/db/pg-schema.ts).
// Run: bun scripts/audit/schema-parity.ts
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')

interface SnapshotTable {
  name: string
  columns: Record<string, unknown>
  indexes: Record<string, unknown>
  uniqueConstraints?: Record<string, unknown>
}

/** The newest snapshot of a migrations folder, as `table`, `table.column` and `index:name` entries. */
function shapeOf(folder: string): Set<string> {
  const meta = join(root, folder, 'meta')
  const last = readdirSync(meta).filter((f) => f.endsWith('_snapshot.json')).sort().at(-1)!
  const snapshot = JSON.parse(readFileSync(join(meta, last), 'utf8')) as { tables: Record<string, SnapshotTable> }
  const shape = new Set<string>()
  for (const t of Object.values(snapshot.tables)) {
    shape.add(t.name)
    for (const c of Object.keys(t.columns)) shape.add(`${t.name}.${c}`)
    for (const i of [...Object.keys(t.indexes), ...Object.keys(t.uniqueConstraints ?? {})]) shape.add(`index:${i}`)
  }
  return shape
}

const sqlite = shapeOf('migrations')
const pg = shapeOf('migrations-pg')
const onlySqlite = [...sqlite].filter((x) => !pg.has(x))
const onlyPg = [...pg].filter((x) => !sqlite.has(x))
let failed = false
if (onlySqlite.length) {
  console.error(`only on SQLite (run \`npm run db:generate\`): ${onlySqlite.join(', ')}`)
  failed = true
}
if (onlyPg.length) {
  console.error(`only on PostgreSQL: ${onlyPg.join(', ')}`)
  failed = true
}
const check = Bun.spawnSync(['bun', join(root, 'scripts/db/pg-schema.ts'), '--check'], { stdout: 'inherit', stderr: 'inherit' })
if (check.exitCode !== 0) failed = true
if (failed) process.exit(1)
console.log(`the engines' schemas match: ${[...sqlite].filter((x) => !x.includes('.') && !x.startsWith('index:')).length} tables, ${sqlite.size} tables, columns and indexes`)
