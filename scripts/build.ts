// Builds dist/glitchbox: one self-contained executable with migrations, a new database's template and docs assets embedded.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bundleWebScript, WEB_SCRIPTS, type WebScriptName } from '../web/server/static-assets'
import { writeDatabaseTemplate } from '../src/db/database-template'
import { databaseParts } from '../src/modules/registry'

const root = join(import.meta.dir, '..')
const MAX_HEADER_FLAG = '--max-http-header-size=65536'
mkdirSync(join(root, 'dist'), { recursive: true })
const target = process.env.GLITCHBOX_BUILD_TARGET // e.g. bun-linux-x64-baseline for old CPUs
// The job worker is an extra entry point, so the binary carries it (see src/jobs/jobs.thread.ts).
const args = ['build', '--compile', 'src/main.ts', 'src/jobs/jobs.worker.ts', '--outfile', 'dist/glitchbox']
// Compiled ahead to bytecode: the server's ~1,400 modules then load in about half the CPU time (start-up,
// issue 30). Bytecode of ES modules needs the format said explicitly (main.ts awaits at top level).
args.push('--bytecode', '--format=esm')
// Request heads up to 64 KB reach the app, which answers long URLs with 414 in the envelope (src/http/body-limit.ts);
// past Bun's default 16 KB it would close them with an empty 431 itself.
args.push(`--compile-exec-argv=${MAX_HEADER_FLAG}`)
// The vote script and /widget.js are bundled now into dist/web-assets/, which the binary embeds
// (web/server/embedded-scripts.ts); from source they are bundled at first use.
mkdirSync(join(root, 'dist', 'web-assets'), { recursive: true })
for (const name of Object.keys(WEB_SCRIPTS) as WebScriptName[]) {
  writeFileSync(join(root, 'dist', 'web-assets', `gb-${name}.webasset`), await bundleWebScript(name))
}
// The database a new data directory starts from (src/db/database-template.ts), embedded through
// src/db/embedded-template.ts: made here by the same migrate() a server would run on an empty file.
mkdirSync(join(root, 'dist', 'db-template'), { recursive: true })
writeDatabaseTemplate(join(root, 'dist', 'db-template', 'glitchbox.dbtemplate'), databaseParts)
if (target) args.push(`--target=${target}`)
const proc = Bun.spawnSync([process.execPath, ...args], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1)
console.log('built dist/glitchbox')
