// What the list's facets (issue 24) cost the ingest write, in-process (no HTTP): submissions with a
// game version (3), platform (6) and player (500) stacked onto one crash report, and new 2 KB player
// reports, in group commits of 32. Run it here and on the commit before the facets to compare:
//   bun scripts/bench/ingest-facets.ts [rounds]      (EXTRA_SQL='DROP INDEX …' for what-ifs)
import { ingest } from '../../src/modules/ingest/ingest.service'
import { inProcessProject } from './in-process'
import { hardware } from './lib'
import { reportTemplate } from './sdk-load'

const body = JSON.parse(reportTemplate().replace('%TITLE%', 'x')) as Record<string, string>
const VERSIONS = ['1.2.0', '1.3.0-beta', '1.3.0']
const PLATFORMS = ['Windows', 'Linux', 'macOS', 'Steam Deck', 'PS5', 'Switch']
const stack = `NullReferenceException\n\n--- Stack Trace ---\n  at Inventory.Refresh () [0x0001a] in Assets/Scripts/Inventory.cs:42\n\n--- Recent Logs ---\n[Log] x`
let n = 0

async function run(kind: 'stack' | 'new') {
  const { deps, project, sqlite, close } = await inProcessProject('ingest-facets')
  deps.events.emit = async () => {}
  // What-if: SQL run on the fresh database first (drop an index, skip a table's inserts with a trigger).
  if (process.env.EXTRA_SQL) sqlite.exec(process.env.EXTRA_SQL)
  const submit = () => {
    n++
    const evidence = { gameVersion: VERSIONS[n % 3], platform: PLATFORMS[n % 6], playerId: `7656119800${String((n * 7919) % 500).padStart(7, '0')}`, osInfo: body.os_info, deviceInfo: body.device_info }
    return kind === 'stack'
      ? ingest(deps, { project, kind: 'auto', title: '[Error] NullReferenceException: Object reference not set', description: stack, category: 'crash', ...evidence })
      : ingest(deps, { project, kind: 'player', title: `report ${n} about the door`, description: body.description!, category: 'gameplay', ...evidence })
  }
  for (let i = 0; i < 50; i++) await Promise.all(Array.from({ length: 32 }, submit))
  const batches = 300
  const t0 = performance.now()
  for (let i = 0; i < batches; i++) await Promise.all(Array.from({ length: 32 }, submit))
  const us = ((performance.now() - t0) / (batches * 32)) * 1000
  close()
  return us
}

const rounds = Number(process.argv[2] ?? 3)
console.log(`${hardware()}; load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`)
for (const kind of ['stack', 'new'] as const) {
  const runs: number[] = []
  for (let i = 0; i < rounds; i++) runs.push(await run(kind))
  runs.sort((a, b) => a - b)
  // The fastest run is the least disturbed by other work on a shared machine.
  console.log(`${kind === 'stack' ? 'stacked occurrence (version, platform, player)' : 'new 2 KB player report'}: fastest ${runs[0]!.toFixed(1)}, median ${runs[Math.floor(runs.length / 2)]!.toFixed(1)} µs a submission (runs: ${runs.map((r) => r.toFixed(1)).join(', ')})`)
}
