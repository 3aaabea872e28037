// Sentry's real clients against the real server (issue 23): @sentry/node run by Node, Debian's
// python3-sentry-sdk and the sentry-cli binary from npm, each given the project's DSN and nothing else.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, ROOT, startServer, studioOnServer } from '../helpers/server-process'

const CAPTURE = join(ROOT, 'test', 'sentry', 'capture')
// Debian's interpreter: python3-sentry-sdk lives in its dist-packages (.ci/run installs it).
const PYTHON = '/usr/bin/python3'
const hasPythonSdk = existsSync(PYTHON) && Bun.spawnSync([PYTHON, '-c', 'import sentry_sdk']).exitCode === 0
const CLI = join(ROOT, 'node_modules', '.bin', 'sentry-cli')
if (!hasPythonSdk) console.warn(`[sentry client tests] ${PYTHON} has no sentry_sdk (apt-get install python3-sentry-sdk): the Python SDK test is skipped`)

let server: Awaited<ReturnType<typeof startServer>>
let token = ''
let slug = ''
let dsn = ''

/** The team API of the real server. */
const api = async (path: string) => {
  const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } })
  return (await res.json()).data
}

/** Runs one client to its end with the project's DSN. */
async function run(cmd: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, SENTRY_DSN: dsn, ...env }, stdout: 'pipe', stderr: 'pipe', timeout: 60_000 })
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code, stdout, stderr }
}

const reportsTitled = async () => ((await api(`/projects/${slug}/bugs?sort=newest`)).bugs as { title: string; report_number: number }[])

beforeAll(async () => {
  server = await startServer({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  // The DSN names the server as its public URL says; the clients reach it on 127.0.0.1.
  ;({ token, slug } = await studioOnServer(server.url, { email: 'sentry@example.com', password: 'sentry-clients-1', project: 'Cave Game' }))
  const read = await api(`/projects/${slug}`)
  expect(read.dsn).toBe(`http://${read.api_key}@localhost:${server.port}/${read.dsn_id}`)
  dsn = read.dsn.replace(`@localhost:`, '@127.0.0.1:')
}, 60_000)

afterAll(async () => {
  await server?.stop()
  removeTempDataDirs()
})

describe('@sentry/node (Node) with the project DSN', () => {
  it('files a thrown error, a message, feedback linked to its error, attachments, and a session that ends crashed', async () => {
    const node = await run(['node', join(CAPTURE, 'node-client.mjs')])
    // Its last step ends the process with an uncaught error.
    expect(node.code, node.stderr).toBe(1)
    const bugs = await reportsTitled()
    const byTitle = (t: string) => bugs.find((b) => b.title === t)!
    expect(bugs.map((b) => b.title)).toEqual(
      expect.arrayContaining(['Error: inventory could not open', 'Player reached the waterfall', 'The inventory never opened after the cave.', 'RangeError: torch count out of range', 'ReferenceError: player is not defined']),
    )
    const error = await api(`/projects/${slug}/bugs/${byTitle('Error: inventory could not open').report_number}`)
    expect(error.bug).toMatchObject({ source: 'system', game_version: '1.4.2', player_id: 'player-7', reporter_name: 'CaveDiver', grouping_label: 'Error at openInventory (node-client.mjs)' })
    expect(error.bug.description).toContain('Caused by: TypeError: save slot 3 is empty')
    expect(error.bug.description).toContain('Picked up a torch')
    // The feedback is a player's report, linked both ways to the error it is about.
    const feedback = await api(`/projects/${slug}/bugs/${byTitle('The inventory never opened after the cave.').report_number}`)
    expect(feedback.bug).toMatchObject({ source: 'user', reporter_name: 'CaveDiver', feedback_for: { report_number: error.bug.report_number } })
    expect(error.bug.feedback).toEqual([{ report_number: feedback.bug.report_number, title: feedback.bug.title }])
    expect(error.comments[0]).toMatchObject({ is_internal: true, body: expect.stringContaining('The inventory never opened after the cave.') })
    // The attachments stay with their occurrence; the fatal error is a crash.
    const range = await api(`/projects/${slug}/bugs/${byTitle('RangeError: torch count out of range').report_number}/occurrences`)
    expect(range.occurrences[0].attachments.map((a: { file_name: string }) => a.file_name).sort()).toEqual(['player.log', 'save-3.json'])
    expect(range.occurrences[0].client).toMatch(/^sentry\.javascript\.node 11\./)
    expect((await api(`/projects/${slug}/bugs/${byTitle('ReferenceError: player is not defined').report_number}`)).bug.category).toBe('crash')
    const health = await api(`/projects/${slug}/release-health`)
    expect(health.versions.find((v: { version: string }) => v.version === '1.4.2')).toMatchObject({ crashed_sessions: 1 })
  }, 90_000)
})

describe.runIf(hasPythonSdk)("Debian's python3-sentry-sdk with the project DSN", () => {
  it('files an exception with its local variables and breadcrumbs (gzip to /store/), and its sessions', async () => {
    const python = await run([PYTHON, join(CAPTURE, 'python-client.py')])
    expect(python.code, python.stderr).toBe(0)
    const bugs = await reportsTitled()
    const keyError = await api(`/projects/${slug}/bugs/${bugs.find((b) => b.title === "KeyError: 'diamond'")!.report_number}`)
    expect(keyError.bug).toMatchObject({ player_id: 'player-8', grouping_label: 'KeyError at dig (python-client.py)' })
    expect(keyError.bug.description).toMatch(/locals: .*tool='?diamond/)
    expect(keyError.bug.description).toContain('Loaded chunk 12,7')
    expect(keyError.bug.description).toContain('Pressed jump')
    const occurrences = await api(`/projects/${slug}/bugs/${keyError.bug.report_number}/occurrences`)
    expect(occurrences.occurrences[0].client).toBe('sentry.python 1.9.10')
  }, 90_000)
})

describe('sentry-cli (the npm package’s binary) with the project DSN', () => {
  it('send-event and send-envelope file their events', async () => {
    const event = await run([CLI, 'send-event', '-m', 'Server %s is down', '-a', 'eu-7', '--release', '2.0.0', '-t', 'region:eu', '--no-environ'])
    expect(event.code, event.stderr).toBe(0)
    const envelope = await run([CLI, 'send-envelope', join(CAPTURE, 'cli-envelope.txt')])
    expect(envelope.code, envelope.stderr).toBe(0)
    const titles = (await reportsTitled()).map((b) => b.title)
    expect(titles).toContain('Server eu-7 is down')
    expect(titles).toEqual(expect.arrayContaining([expect.stringContaining('EXCEPTION_ACCESS_VIOLATION_READ')]))
  }, 60_000)
})

describe("Unreal's CrashReportClient upload and a crash reporter's minidump, over HTTP", () => {
  it('files both through their routes (public test data: symbolic, rust-minidump)', async () => {
    const { api_key: key, dsn_id: id } = await api(`/projects/${slug}`)
    const fixtures = join(ROOT, 'test', 'sentry', 'fixtures')
    const unreal = await fetch(`${server.url}/api/${id}/unreal/${key}/?AppID=CrashReporter&UploadType=crashreports`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Bun.file(join(fixtures, 'unreal', 'unreal_crash')) })
    expect([unreal.status, await unreal.text()]).toEqual([200, expect.stringMatching(/^[0-9a-f]{8}-/)])
    const form = new FormData()
    form.append('upload_file_minidump', Bun.file(join(fixtures, 'minidumps', 'test.dmp')), 'crash.dmp')
    const minidump = await fetch(`${server.url}/api/${id}/minidump/?sentry_key=${key}`, { method: 'POST', body: form })
    expect(minidump.status).toBe(200)
    const titles = (await reportsTitled()).map((b) => b.title)
    expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/^Assertion failed/), 'EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e']))
  }, 60_000)
})
