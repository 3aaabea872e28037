// Writes src/db/pg/schema.ts: the PostgreSQL form of every table, generated from the SQLite tables
// the domains declare (src/db/schema.ts), so the two engines cannot drift apart. drizzle-kit then
// diffs it into PostgreSQL migrations (drizzle.pg.config.ts, migrations-pg/), as it does for SQLite.
//
// The server queries both engines with the SQLite table objects (Drizzle renders SQL per dialect; the
// tables only name columns and map values), so each PostgreSQL type is chosen to hand back what the
// SQLite column's mapper expects: 32-bit `integer` for counts and booleans (0/1), `bigint` for the
// columns of src/db/columns.ts that pass 32 bits (their mappers apply Number), `text` for JSON.
// Run: bun scripts/db/pg-schema.ts [--check]   (--check: fail when the file is out of date)
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { getTableColumns, is, SQL } from 'drizzle-orm'
import { getTableConfig, SQLiteSyncDialect, SQLiteTable, type SQLiteColumn } from 'drizzle-orm/sqlite-core'
import * as schema from '../../src/db/schema'

const target = resolve(import.meta.dir, '../../src/db/pg/schema.ts')
const dialect = new SQLiteSyncDialect()

/** SQLite-only SQL in index predicates and generated columns, in its PostgreSQL form. */
function pgSqlOf(fragment: SQL): string {
  const { sql, params } = dialect.sqlToQuery(fragment)
  if (params.length) throw new Error(`a schema expression carries parameters: ${sql}`)
  return sql.replace(/\binstr\(/g, 'strpos(').replace(/\bchar\(10\)/g, 'chr(10)')
}

const literal = (v: unknown) => (is(v, SQL) ? `sql.raw(${JSON.stringify(pgSqlOf(v))})` : JSON.stringify(typeof v === 'boolean' ? Number(v) : v))

/** The PostgreSQL column builder for one SQLite column. */
function columnOf(col: SQLiteColumn, onlyKey: boolean): { code: string; builders: string[] } {
  const name = JSON.stringify(col.name)
  const sqlType = col.getSQLType()
  let code: string
  let builder: string
  if (col.columnType === 'SQLiteCustomColumn' || col.columnType === 'SQLiteTimestamp') [builder, code] = ['bigint', `bigint(${name}, { mode: 'number' })`]
  else if (sqlType === 'integer') [builder, code] = ['integer', `integer(${name})`]
  else if (sqlType === 'real') [builder, code] = ['doublePrecision', `doublePrecision(${name})`]
  else if (sqlType === 'text') [builder, code] = ['text', `text(${name})`]
  else if (sqlType === 'blob') [builder, code] = ['bytea', `bytea(${name})`]
  else throw new Error(`no PostgreSQL type for ${col.name} (${sqlType})`)
  const builders = [builder]
  const generated = (col as unknown as { generated?: { as: unknown } }).generated
  if (generated) {
    // PostgreSQL has stored generated columns only; a boolean expression becomes 0/1 as SQLite gives.
    const expr = pgSqlOf(generated.as as SQL)
    code += `.generatedAlwaysAs(sql.raw(${JSON.stringify(col.columnType === 'SQLiteBoolean' ? `CASE WHEN ${expr} THEN 1 ELSE 0 END` : expr)}))`
    builders.push('sql')
  }
  if (col.primary) {
    code += '.primaryKey()'
    // An integer key is SQLite's rowid: filled in when an insert leaves it out.
    if (onlyKey && sqlType === 'integer') code += '.generatedByDefaultAsIdentity()'
  }
  if (col.notNull && !col.primary) code += '.notNull()'
  if (col.hasDefault && col.default !== undefined) {
    // A JSON column's default is a value that SQLite stores as its text.
    code += `.default(${literal(col.columnType === 'SQLiteTextJson' ? JSON.stringify(col.default) : col.default)})`
    if (is(col.default, SQL)) builders.push('sql')
  }
  if (col.isUnique) code += `.unique(${JSON.stringify(col.uniqueName)})`
  return { code, builders }
}

function tableOf(exportName: string, table: SQLiteTable, exportOf: Map<string, string>) {
  const config = getTableConfig(table)
  const keyOf = new Map(Object.entries(getTableColumns(table)).map(([key, col]) => [col.name, key]))
  const used = new Set<string>(['pgTable'])
  const cols = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const { code, builders } = columnOf(col as SQLiteColumn, config.primaryKeys.length === 0)
    for (const b of builders) used.add(b)
    return `    ${key}: ${code},`
  })
  const ref = (name: string) => `t.${keyOf.get(name)}`
  const extras: string[] = []
  for (const pk of config.primaryKeys) {
    used.add('primaryKey')
    extras.push(`primaryKey({ columns: [${pk.columns.map((c) => ref(c.name)).join(', ')}] })`)
  }
  for (const ix of config.indexes) {
    const c = ix.config
    // A plain unique index becomes a unique constraint (same name): foreign keys may point at its
    // columns, and PostgreSQL wants that target in place before drizzle-kit adds them.
    if (c.unique && !c.where && c.columns.every((p) => !is(p, SQL))) {
      used.add('unique')
      extras.push(`unique(${JSON.stringify(c.name)}).on(${c.columns.map((p) => ref((p as SQLiteColumn).name)).join(', ')})`)
      continue
    }
    used.add(c.unique ? 'uniqueIndex' : 'index')
    const parts = c.columns.map((p) => (is(p, SQL) ? `sql.raw(${JSON.stringify(pgSqlOf(p))})` : ref((p as SQLiteColumn).name)))
    if (c.columns.some((p) => is(p, SQL)) || c.where) used.add('sql')
    extras.push(`${c.unique ? 'uniqueIndex' : 'index'}(${JSON.stringify(c.name)}).on(${parts.join(', ')})${c.where ? `.where(sql.raw(${JSON.stringify(pgSqlOf(c.where))}))` : ''}`)
  }
  for (const fk of config.foreignKeys) {
    used.add('foreignKey')
    const r = fk.reference()
    const foreign = exportOf.get(getTableConfig(r.foreignTable as SQLiteTable).name)!
    const foreignKeys = new Map(Object.entries(getTableColumns(r.foreignTable)).map(([key, col]) => [col.name, key]))
    const fColumns = r.foreignColumns.map((c) => `${foreign === exportName ? 't' : foreign}.${foreignKeys.get(c.name)}`)
    let code = `foreignKey({ name: ${JSON.stringify(fk.getName())}, columns: [${r.columns.map((c) => ref(c.name)).join(', ')}], foreignColumns: [${fColumns.join(', ')}] })`
    if (fk.onDelete && fk.onDelete !== 'no action') code += `.onDelete(${JSON.stringify(fk.onDelete)})`
    if (fk.onUpdate && fk.onUpdate !== 'no action') code += `.onUpdate(${JSON.stringify(fk.onUpdate)})`
    extras.push(code)
  }
  for (const u of config.uniqueConstraints) {
    used.add('unique')
    extras.push(`unique(${JSON.stringify(u.getName())}).on(${u.columns.map((c) => ref(c.name)).join(', ')})`)
  }
  if (config.checks.length) throw new Error(`${config.name}: CHECK constraints have no generator yet`)
  const tail = extras.length ? `,\n  (t) => [\n${extras.map((e) => `    ${e},`).join('\n')}\n  ],\n` : ',\n'
  return { code: `export const ${exportName} = pgTable(\n  ${JSON.stringify(config.name)},\n  {\n${cols.join('\n')}\n  }${tail})`, used }
}

const tables = Object.entries(schema as Record<string, unknown>).filter((e): e is [string, SQLiteTable] => is(e[1], SQLiteTable))
const exportOf = new Map(tables.map(([key, t]) => [getTableConfig(t).name, key]))
const used = new Set<string>()
const bodies = tables.map(([key, t]) => {
  const out = tableOf(key, t, exportOf)
  for (const u of out.used) used.add(u)
  return out.code
})
const pgCore = [...used].filter((u) => u !== 'sql').sort()
const text = `// GENERATED by scripts/db/pg-schema.ts from the SQLite tables (src/db/schema.ts): do not edit.
// The PostgreSQL form of every table, for drizzle-kit (drizzle.pg.config.ts) to diff into migrations-pg/.
/* eslint-disable */
${used.has('sql') ? "import { sql } from 'drizzle-orm'\n" : ''}import { ${pgCore.join(', ')} } from 'drizzle-orm/pg-core'

${bodies.join('\n\n')}
`
if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : ''
  if (current !== text) {
    console.error('src/db/pg/schema.ts is out of date with the SQLite tables: run `npm run db:generate`')
    process.exit(1)
  }
  console.log(`src/db/pg/schema.ts matches the SQLite tables (${tables.length} tables)`)
} else {
  writeFileSync(target, text)
  console.log(`wrote src/db/pg/schema.ts (${tables.length} tables)`)
}
