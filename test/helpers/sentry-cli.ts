// The real sentry-cli in tests: where the binaries are, how to run one, and a minified build for its
// source-map commands. Shared by the source-map, debug-file and browser tests.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './server-process'

/** sentry-cli 3.x (a devDependency). */
export const SENTRY_CLI = join(ROOT, 'node_modules', '.bin', 'sentry-cli')

/**
 * The versions to test: 3.x, and 2.x when SENTRY_CLI_2 names its binary
 * (`npm install --prefix /tmp/cli2 @sentry/cli@2`, then SENTRY_CLI_2=/tmp/cli2/node_modules/.bin/sentry-cli).
 */
export function sentryClis(suite: string): [string, string][] {
  const clis: [string, string][] = [['3.x', SENTRY_CLI]]
  if (process.env.SENTRY_CLI_2) clis.push(['2.x', process.env.SENTRY_CLI_2])
  else console.warn(`[${suite}] SENTRY_CLI_2 is not set: sentry-cli 2.x is not tested`)
  return clis
}

/** Runs sentry-cli (`cmd` starts with the binary) in `cwd`, quiet and without its update check; its exit code and output. */
export async function runSentryCli(cmd: string[], cwd: string, env: Record<string, string | undefined> = {}, timeout = 90_000) {
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, SENTRY_LOG_LEVEL: 'warn', SENTRY_DISABLE_UPDATE_CHECK: 'true', ...env }, stdout: 'pipe', stderr: 'pipe', timeout })
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code, out: `${stdout}\n${stderr}` }
}

/**
 * Minifies `entry` into `outdir` with a linked source map and takes Bun's own debug id out of both
 * files: the build is then what webpack or Vite give sentry-cli. Returns the script's path.
 */
export async function minifiedBuild(entry: string, outdir: string, o: { naming?: string; target?: 'browser' } = {}): Promise<string> {
  const built = await Bun.build({ entrypoints: [entry], outdir, minify: true, sourcemap: 'linked', ...o })
  if (!built.success) throw new Error(`the build failed: ${built.logs.join('\n')}`)
  const js = join(outdir, o.naming ?? 'game.js')
  writeFileSync(js, readFileSync(js, 'utf8').replace(/^\/\/# debugId=.*\n?/m, ''))
  const mapPath = `${js}.map`
  const { debugId: _bunId, ...map } = JSON.parse(readFileSync(mapPath, 'utf8'))
  writeFileSync(mapPath, JSON.stringify(map))
  return js
}
