// Where a filed report's microseconds go on the request thread, in-process (no HTTP): the ingest
// write of new 2 KB reports in group commits of 32, whole and then with one piece taken away at a
// time (what-if measurements: each piece's cost is the difference). Usage: bun scripts/bench/ingest-pieces.ts
import { rawSqlite } from '../../src/db/client'
import { groupingOf } from '../../src/modules/ingest/fingerprint'
import { ingest } from '../../src/modules/ingest/ingest.service'
import { findPossibleDuplicates } from '../../src/modules/ingest/duplicates'
import { createIngestRepository } from '../../src/modules/ingest/ingest.repository'
import { scoreSentiment } from '../../src/modules/ingest/sentiment'
import { framesOfText, stackTraceSection } from '../../src/modules/ingest/stack-text'
import { extractErrorType } from '../../src/modules/reports/error-type'
import { modules } from '../../src/modules/registry'
import { inProcessProject } from './in-process'
import { hardware } from './lib'
import { reportTemplate } from './sdk-load'

const body = JSON.parse(reportTemplate().replace('%TITLE%', 'x')) as Record<string, string>
const words = 'crash freeze stutter inventory boss texture audio menu lag save load level door enemy weapon shader physics camera player quest npc dialog cutscene checkpoint respawn minimap'.split(' ')
let n = 0
const title = () => { n++; return `${words[n % 26]} ${words[Math.floor(n / 26) % 26]} ${words[Math.floor(n / 7) % 26]} report ${n}` }

async function run(label: string, setup?: (sql: ReturnType<typeof rawSqlite>) => void, quiet = false) {
  const { deps, project, sqlite, close } = await inProcessProject('ingest-pieces')
  setup?.(sqlite)
  // The subscribers the server registers (SLA clocks, notifications, webhooks, integrations...), as in createApp.
  if (!quiet) for (const m of modules) m.subscribe?.(deps as Parameters<NonNullable<(typeof modules)[number]['subscribe']>>[0])
  const submit = () => ingest(deps, { project, kind: 'player', title: title(), description: body.description!, platform: body.platform, gameVersion: body.game_version, osInfo: body.os_info, deviceInfo: body.device_info, category: 'gameplay' })
  for (let i = 0; i < 100; i++) await Promise.all(Array.from({ length: 32 }, submit))
  // Three rounds, the fastest kept: other processes on a shared machine only ever add time.
  let us = Infinity
  let cpuUs = Infinity
  for (let round = 0; round < 3; round++) {
    const batches = 100
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    for (let i = 0; i < batches; i++) await Promise.all(Array.from({ length: 32 }, submit))
    us = Math.min(us, ((performance.now() - t0) / (batches * 32)) * 1000)
    // CPU time (user + system) as well: on a machine others load, it moves far less than wall time.
    const cpu = process.cpuUsage(cpu0)
    cpuUs = Math.min(cpuUs, (cpu.user + cpu.system) / (batches * 32))
  }
  console.log(`${label.padEnd(66)} ${us.toFixed(1).padStart(6)} µs a report (${cpuUs.toFixed(1)} µs CPU)`)
  close()
  return us
}

console.log(`${hardware()}; load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}\n`)
const whole = await run('ingest of a new 2 KB player report, 32 per commit')
const drop = (sql: string) => (s: ReturnType<typeof rawSqlite>) => s.exec(sql)
await run('  without the FTS5 index of title and description', drop('DROP TRIGGER reports_fts_ai'))
await run('  without the open-title words (possible duplicates index)', drop('DROP TRIGGER open_title_terms_ai'))
await run('  without the status-count and analytics-dimension triggers', drop('DROP TRIGGER report_counts_ai; DROP TRIGGER analytics_dims_ai'))
await run('  without bug_created (webhooks, mail, integrations, SLA subscribers)', undefined, true)
await run('  without the report list indexes', drop("DROP INDEX reports_live_status_idx; DROP INDEX reports_live_status_priority_idx; DROP INDEX reports_live_priority_idx; DROP INDEX reports_live_category_idx; DROP INDEX reports_live_source_idx; DROP INDEX reports_live_updated_idx; DROP INDEX reports_live_upvotes_idx; DROP INDEX reports_live_error_type_idx; DROP INDEX reports_live_assignee_idx; DROP INDEX reports_live_last_seen_idx; DROP INDEX reports_live_occurrences_idx; DROP INDEX reports_live_players_idx"))
const time = async (label: string, count: number, fn: () => unknown) => {
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await fn()
  console.log(`${label.padEnd(66)} ${(((performance.now() - t0) / count) * 1000).toFixed(1).padStart(6)} µs`)
}
console.log('\npieces on their own:')
await time('sentiment (title + 1.8 KB)', 2000, () => scoreSentiment(['Some title here', body.description]))
await time('error type (title + 1.8 KB)', 5000, () => extractErrorType('Some title here', body.description))
await time('fingerprint of a player title', 20000, () => groupingOf({ kind: 'player', title: title(), errorType: '', frames: [] }))
const stack = `NullReferenceException\n\n--- Stack Trace ---\n${Array.from({ length: 30 }, (_, i) => `  at Game.Module${i}.Method${i} () [0x000${i}] in Assets/Scripts/File${i}.cs:${i + 10}`).join('\n')}\n\n--- Recent Logs ---\n[Log] x`
await time('fingerprint of a 30-frame crash stack (text parsed)', 5000, () => groupingOf({ kind: 'auto', title: '[Error] x', errorType: 'NullReferenceException', frames: framesOfText(stackTraceSection(stack)!) }))
{
  const { deps, project, close } = await inProcessProject('ingest-dups')
  for (let i = 0; i < 300; i++) await Promise.all(Array.from({ length: 32 }, () => ingest(deps, { project, kind: 'player', title: title(), description: 'd' })))
  await time('possible duplicates lookup (10,000 open reports)', 3000, () => findPossibleDuplicates(createIngestRepository({ db: deps.db }), project.id, title()))
  close()
}
console.log(`\nwhole: ${whole.toFixed(1)} µs a report`)
