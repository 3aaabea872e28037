import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { startServer } from '../helpers/server-process'

describe('the start-up log', () => {
  it('says where the web app and the docs are', async () => {
    const s = await startServer({ env: { GLITCHBOX_LOG_LEVEL: 'info' } })
    await s.stop()
    rmSync(s.dataDir, { recursive: true, force: true })
    const lines = (await new Response(s.proc.stdout as ReadableStream).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    const listening = lines.find((l) => String(l.msg).startsWith('glitchbox listening'))
    expect(listening).toBeDefined()
    expect(listening.msg).toBe(`glitchbox listening: web app at ${s.url}/, API docs at ${s.url}/docs`)
    expect(listening.web_app).toBe(`${s.url}/`)
    expect(listening.docs).toBe(`${s.url}/docs`)
    // Bundled before listening: no error about the dashboard.
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
  })
})
