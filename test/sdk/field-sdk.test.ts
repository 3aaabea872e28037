// Request shapes sent by game SDKs already in the field (CONTRACT.md, "Compatibility with game SDKs
// already in the field"), replayed verbatim: these must keep working unmodified.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { pngDataUrl, sdkProject, WEBM } from './sdk-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('field SDK request shapes', () => {
  it('submits with a data-URL screenshot, steam_id and reporter_name; data.id is a string', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: {
        title: 'Player falls through the floor in the cave',
        description: 'Walking near the waterfall drops me out of the map.',
        category: 'gameplay',
        priority: 'high',
        platform: 'Windows',
        game_version: '1.4.2',
        os_info: 'Windows 11 23H2',
        device_info: 'RTX 3060, 16 GB',
        screenshot: pngDataUrl(),
        steam_id: '76561198000000001',
        reporter_name: 'CaveDiver',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body.ok).toBe(true)
    expect(typeof res.body.data.id).toBe('string')
    expect(res.body.data).toMatchObject({ report_number: 1, message: 'Bug report submitted', category: 'gameplay', priority: 'high' })
    const [report] = await sqlRows(t, 'SELECT player_id, reporter_name, screenshot_key FROM reports WHERE id = ?', res.body.data.id)
    expect(report).toMatchObject({ player_id: '76561198000000001', reporter_name: 'CaveDiver' })
    expect(await sqlRows(t, 'SELECT mime_type FROM files WHERE key = ?', report!.screenshot_key)).toEqual([{ mime_type: 'image/png' }])
  })

  it('auto-files "[Error] …" reports with stack trace and logs as system reports with their error type', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: {
        title: '[Error] NullReferenceException: Object reference not set to an instance of an object',
        description:
          'NullReferenceException: Object reference not set to an instance of an object\n\n--- Stack Trace ---\n  at PlayerController.Update () [0x00012] in Assets/Scripts/PlayerController.cs:42\n\n--- Recent Logs ---\n[Log] Scene loaded: Level2\n[Warning] Missing texture',
        category: 'crash',
        platform: 'Windows',
        game_version: '1.4.2',
      },
    })
    expect(res.status).toBe(201)
    expect(await sqlRows(t, 'SELECT source, error_type FROM reports WHERE id = ?', res.body.data.id)).toEqual([{ source: 'system', error_type: 'NullReferenceException' }])
  })

  it('starts sessions with api_key in the body, a non-UUID token and no header; ends them repeatedly', async () => {
    const { key } = await sdkProject(t)
    const token = 'sess-1700000000-abc'
    const start = await t.request('POST', '/api/sessions/start', {
      body: { api_key: key, session_token: token, platform: 'Windows', game_version: '1.4.2', device_info: 'RTX 3060', os_info: 'Windows 11', steam_id: '76561198000000001', player_name: 'CaveDiver' },
    })
    expect(start.status).toBe(201)
    expect(start.body.data.session_token).toBe(token)
    const first = await t.request('POST', '/api/sessions/end', { body: { api_key: key, session_token: token, crashed: false } })
    expect(first.status).toBe(200)
    t.clock.advance(60_000)
    const again = await t.request('POST', '/api/sessions/end', { body: { api_key: key, session_token: token, crashed: true } })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await sqlRows(t, 'SELECT crashed, player_id FROM play_sessions WHERE token = ?', token)).toEqual([{ crashed: 0, player_id: '76561198000000001' }])
  })

  it('stores perf snapshots without bug_report_id, with custom_metrics as object or string (201)', async () => {
    const { key } = await sdkProject(t)
    const asObject = await t.request('POST', '/api/perf/snapshot', {
      apiKey: key,
      body: { fps: 58.2, frame_time_ms: 17.1, memory_used_mb: 2048, memory_total_mb: 16384, draw_calls: 1200, triangles: 850000, cpu_usage: 43.5, gpu_usage: 71, load_time_sec: 4.2, network_latency_ms: 35, custom_metrics: { scene: 'Level2', entities: 312 } },
    })
    expect(asObject.status).toBe(201)
    const asString = await t.request('POST', '/api/perf/snapshot', { apiKey: key, body: { fps: 60, load_time_sec: 3.1, custom_metrics: '{"scene":"Menu"}' } })
    expect(asString.status).toBe(201)
    expect(typeof asString.body.data.id).toBe('string')
    expect(await sqlRows(t, 'SELECT report_id, custom_metrics FROM perf_snapshots ORDER BY fps')).toEqual([
      { report_id: null, custom_metrics: '{"scene":"Level2","entities":312}' },
      { report_id: null, custom_metrics: '"{\\"scene\\":\\"Menu\\"}"' },
    ])
  })

  it('uploads session replays as multipart bug_report_id, duration_sec, metadata, file on a studio plan (201)', async () => {
    const { key } = await sdkProject(t, 'studio')
    const submit = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Boss stuck in wall', description: 'It happened twice' } })
    const form = new FormData()
    form.set('bug_report_id', submit.body.data.id)
    form.set('duration_sec', '30')
    form.set('metadata', JSON.stringify({ fps: 60, resolution: '1920x1080' }))
    form.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
    const res = await t.request('POST', '/api/session-replays', { apiKey: key, body: form })
    expect(res.status).toBe(201)
    expect(res.body.data.file_url).toMatch(/^http:\/\/glitchbox\.test\/api\/files\//)
    expect(await sqlRows(t, 'SELECT duration_sec, metadata, mime_type FROM session_replays')).toEqual([{ duration_sec: 30, metadata: '{"fps":60,"resolution":"1920x1080"}', mime_type: 'video/webm' }])
  })

  it('reads settings as booleans and a widget_theme object', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('GET', '/api/bugs/settings', { apiKey: key })
    expect(res.status).toBe(200)
    for (const f of ['screenshot_capture', 'session_capture', 'auto_file_errors', 'capture_editor_errors', 'capture_warnings']) expect(typeof res.body.data[f]).toBe('boolean')
    expect(res.body.data.widget_theme).toBeTypeOf('object')
    expect(res.body.data.widget_theme.primary_color).toBe('#2E5BFF')
  })
})
