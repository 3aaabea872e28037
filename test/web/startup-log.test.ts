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
    // No GLITCHBOX_PUBLIC_URL here: said once, with the address the DSN uses and the variable to set (issue 29).
    const unset = lines.filter((l) => String(l.msg).includes('GLITCHBOX_PUBLIC_URL'))
    expect(unset).toHaveLength(1)
    expect(unset[0].msg).toContain(`use http://localhost:${s.port}`)
    expect(unset[0].msg).toMatch(/set GLITCHBOX_PUBLIC_URL to/)
  })

  it('says nothing about GLITCHBOX_PUBLIC_URL when it is set', async () => {
    const s = await startServer({ env: { GLITCHBOX_LOG_LEVEL: 'info', GLITCHBOX_PUBLIC_URL: 'https://bugs.studio.example' } })
    await s.stop()
    rmSync(s.dataDir, { recursive: true, force: true })
    const text = await new Response(s.proc.stdout as ReadableStream).text()
    expect(text).toContain('glitchbox listening')
    expect(text).not.toContain('GLITCHBOX_PUBLIC_URL is not set')
  })
})
