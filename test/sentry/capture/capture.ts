// Records what real Sentry clients send, as fixtures for test/sentry: a 127.0.0.1 server answers
// every request with 200 {"id": …} (so the clients behave as with Sentry) and keeps its method, path,
// query, headers and body. Each client is pointed at it with a DSN and runs one scenario.
// Run: bun test/sentry/capture/capture.ts   (writes test/sentry/fixtures/, see the README there)
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

const KEY = 'sk_live_capture0key'
// Debian's interpreter: python3-sentry-sdk lives in its dist-packages.
const PYTHON = '/usr/bin/python3'
const here = import.meta.dir
const root = join(here, '..', '..', '..')
const out = join(here, '..', 'fixtures', 'captured')

interface Captured {
  client: string
  method: string
  path: string
  query: string
  headers: Record<string, string>
  body: Uint8Array
}
const captured: Captured[] = []
let client = ''

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const url = new URL(req.url)
    const body = new Uint8Array(await req.arrayBuffer())
    captured.push({ client, method: req.method, path: url.pathname, query: url.search, headers: Object.fromEntries(req.headers), body })
    return Response.json({ id: crypto.randomUUID().replaceAll('-', '') })
  },
})
const port = server.port
const dsn = `http://${KEY}@127.0.0.1:${port}/42`
const env = { ...process.env, SENTRY_DSN: dsn }

/** Runs one client to its end (asynchronously: the server answers it meanwhile). */
async function run(name: string, cmd: string, args: string[]) {
  client = name
  const child = Bun.spawn([cmd, ...args], { cwd: root, env, stdout: 'pipe', stderr: 'pipe', timeout: 60_000 })
  const [status, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  console.log(`${name}: exit ${status}${stderr ? `\n${stderr.trim().slice(0, 2000)}` : ''}`)
}

const versions = {
  '@sentry/node': (await import('@sentry/node/package.json')).version as string,
  node: execFileSync('node', ['--version'], { encoding: 'utf8' }).trim(),
  'python3-sentry-sdk': execFileSync(PYTHON, ['-c', 'import sentry_sdk; print(sentry_sdk.VERSION)'], { encoding: 'utf8' }).trim(),
  python3: execFileSync(PYTHON, ['--version'], { encoding: 'utf8' }).trim(),
  '@sentry/cli': execFileSync(join(root, 'node_modules/.bin/sentry-cli'), ['--version'], { encoding: 'utf8' }).trim(),
}

// Its last step ends the process with an uncaught error, so it exits 1.
await run('node', 'node', [join(here, 'node-client.mjs')])
await run('python', PYTHON, [join(here, 'python-client.py')])
const cli = join(root, 'node_modules/.bin/sentry-cli')
await run('cli-send-event', cli, ['send-event', '-m', 'Server %s is down', '-a', 'eu-1', '--release', 'cave-game@1.4.2', '-E', 'playtest', '-t', 'region:eu', '-e', 'build:2024.05.01', '--no-environ'])
const envelope = join(here, 'cli-envelope.txt')
await run('cli-send-envelope', cli, ['send-envelope', envelope])
server.stop(true)

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const index = captured.map((c, i) => {
  const items = itemTypes(c)
  const file = `${String(i + 1).padStart(2, '0')}-${c.client}-${c.path.includes('/store/') ? 'store' : items.join('+') || 'empty'}.bin`
  writeFileSync(join(out, file), c.body)
  // The port changes with every capture; the fixtures say 127.0.0.1:PORT.
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, v.replace(`:${port}`, ':PORT')]))
  return { file, client: c.client, method: c.method, path: c.path, query: c.query, headers, bytes: c.body.length, items }
})
writeFileSync(join(out, 'index.json'), `${JSON.stringify({ dsn: dsn.replace(`:${port}`, ':PORT'), versions, requests: index }, null, 2)}\n`)
console.log(`${captured.length} requests → ${out}: ${readdirSync(out).join(', ')}`)

/** The item types of an envelope body (after gzip), for the file name; [] for a store body. */
function itemTypes(c: Captured): string[] {
  let body = Buffer.from(c.body)
  if (c.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
  if (c.path.includes('/store/')) return []
  const types: string[] = []
  const lines = body.toString('latin1').split('\n')
  for (let i = 1; i < lines.length; i++) {
    try {
      const header = JSON.parse(lines[i]!)
      if (typeof header.type !== 'string') continue
      types.push(header.type)
      if (typeof header.length === 'number') {
        // Skip the payload by its length (it may hold newlines).
        let skip = header.length
        while (skip > 0 && i + 1 < lines.length) skip -= Buffer.byteLength(lines[++i]!, 'latin1') + 1
      } else i++
    } catch {}
  }
  return types
}
