import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, startServer, tempDataDir } from '../helpers/server-process'

afterAll(removeTempDataDirs)

/** The JSON log lines a stopped server wrote to stdout. */
const logLines = async (proc: { stdout: unknown }) =>
  (await new Response(proc.stdout as ReadableStream).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: string; msg: string })

// The server listens first and starts its job thread after (src/cli/serve.ts, issue 30): a stop that
// arrives while that thread is still loading must wait for it, stop it, and free the data directory.
describe('a server stopped as soon as it answers /health', () => {
  it('stops cleanly, and the next server starts on the same data directory', async () => {
    const dataDir = tempDataDir()
    const first = await startServer({ dataDir, env: { GLITCHBOX_LOG_LEVEL: 'info' } })
    expect(await first.stop('SIGTERM')).toBe(0)
    const lines = await logLines(first.proc)
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
    expect(lines.at(-1)?.msg).toBe('stopped')

    const second = await startServer({ dataDir })
    try {
      expect((await fetch(`${second.url}/health`)).status).toBe(200)
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0)
    }
  })
})
