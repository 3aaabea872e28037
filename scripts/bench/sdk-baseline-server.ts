// Baselines of the SDK benchmark, with the server's pragmas (WAL, synchronous=NORMAL) and no framework:
// a bare Bun.serve handler parsing the JSON report and doing one prepared bun:sqlite insert of it,
// and (POST /events) one inserting a batch of events in one transaction with one prepared statement.
import { join } from 'node:path'
import { openSqlite } from '../../src/db/client'

const db = openSqlite(join(process.env.DATA_DIR!, 'baseline.db'))
db.exec(`CREATE TABLE IF NOT EXISTS reports (id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL,
  platform TEXT, game_version TEXT, device_info TEXT, os_info TEXT, created_at INTEGER NOT NULL)`)
db.exec(`CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL, session_token TEXT, data TEXT)`)
const insertEvent = db.prepare('INSERT INTO events (name, created_at, session_token, data) VALUES (?, ?, ?, ?)')
const insertEvents = db.transaction((events: { event_name: string; session_token?: string; event_data?: unknown }[]) => {
  const now = Date.now()
  for (const e of events) insertEvent.run(e.event_name, now, e.session_token ?? null, e.event_data ? JSON.stringify(e.event_data) : null)
})
const insert = db.prepare('INSERT INTO reports (id, title, description, platform, game_version, device_info, os_info, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')

Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  async fetch(req) {
    if (req.method !== 'POST') return Response.json({ status: 'healthy' })
    if (req.url.endsWith('/events')) {
      const { events } = (await req.json()) as { events: [] }
      insertEvents(events)
      return Response.json({ ok: true, data: { tracked: events.length } }, { status: 201 })
    }
    const r = (await req.json()) as Record<string, string>
    const id = crypto.randomUUID()
    insert.run(id, r.title!, r.description!, r.platform ?? null, r.game_version ?? null, r.device_info ?? null, r.os_info ?? null, Date.now())
    return Response.json({ ok: true, data: { id } }, { status: 201 })
  },
})
