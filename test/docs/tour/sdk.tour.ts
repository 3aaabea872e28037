import type { Tour } from './tour.types'

/** A 1×1 PNG, as game clients send screenshots (a data URL). */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
/**
 * A GIF header with ASCII filler: Prism reads every request body that is not JSON as UTF-8 text before it
 * forwards it, so bytes above 0x7f would not arrive as sent; the server reads the type from the first bytes.
 */
const GIF_TEXT = `GIF89a${'0'.repeat(64)}`

const submit = {
  title: '[Error] NullReferenceException in ShipController.Update',
  description: 'The ship froze after the second gate.\n--- Stack Trace ---\nShipController.Update () (at Assets/Scripts/ShipController.cs:42)',
  category: 'crash',
  platform: 'Windows',
  game_version: '1.4.2',
  os_info: 'Windows 11 23H2',
  player_id: 'player-7',
  reporter_name: 'PlayerSeven',
}

/** What a game client sends with the project's key: reports, attachments, sessions, events, performance and replays. */
export const sdkTour: Tour = {
  'GET /api/bugs/settings': { as: 'sdk' },
  'POST /api/sessions/start': {
    as: 'anonymous',
    body: (w) => ({ api_key: w.v.apiKey, session_token: 'session-0001-comet', platform: 'Windows', game_version: '1.4.2', player_id: 'player-7', player_name: 'PlayerSeven' }),
  },
  'POST /api/bugs/submit': { as: 'sdk', body: () => ({ ...submit, screenshot: PNG }), keep: (d, w) => ((w.v.sdkId = d.id), (w.v.sdkNumber = String(d.report_number))) },
  'POST /api/bugs/{id}/attachments': { as: 'sdk', params: (w) => ({ id: w.v.sdkId! }), body: () => ({ filename: 'player.log', mime_type: 'text/plain', data: btoa('[00:01] gate 2 reached\n') }) },
  'POST /api/events/track': { as: 'sdk', body: () => ({ event_name: 'level_start', event_data: { level: 3 }, session_token: 'session-0001-comet', platform: 'Windows', game_version: '1.4.2' }) },
  'POST /api/events/track/batch': { as: 'sdk', body: () => ({ events: [{ event_name: 'level_complete', event_data: { level: 3, seconds: 212 } }, { event_name: 'level_start', event_data: { level: 4 } }] }) },
  'POST /api/perf/snapshot': { as: 'sdk', body: (w) => ({ bug_report_id: w.v.sdkId, fps: 41.5, frame_time_ms: 24.1, memory_used_mb: 1800, cpu_usage: 71, custom_metrics: { shader_compiles: 3 } }) },
  'POST /api/session-replays': {
    as: 'sdk',
    body: (w) => {
      const form = new FormData()
      form.set('bug_report_id', w.v.sdkId!)
      form.set('duration_sec', '12.5')
      form.set('metadata', JSON.stringify({ scene: 'gate-2' }))
      form.set('file', new File([GIF_TEXT], 'replay.gif', { type: 'image/gif' }))
      return form
    },
  },
  'POST /api/sessions/end': { as: 'anonymous', body: (w) => ({ api_key: w.v.apiKey, session_token: 'session-0001-comet', crashed: true }) },
  // The screenshot the submit stored, served back as the image it is.
  'GET /api/files/{key}': {
    as: 'anonymous',
    before: async (w) => {
      const report = await w.t.request('GET', `/api/projects/${w.v.slug}/bugs/${w.v.sdkNumber}`, { token: w.owner.token })
      w.v.key = report.body.data.bug.screenshot_url.split('/api/files/')[1]
    },
  },
  'GET /api/projects/{slug}/bugs/{number}/occurrences': {
    // The same crash again from another player stacks onto the report as an occurrence.
    before: (w) => w.t.request('POST', '/api/bugs/submit', { apiKey: w.v.apiKey, body: { ...submit, player_id: 'player-8', reporter_name: 'PlayerEight' } }),
    params: (w) => ({ number: w.v.sdkNumber! }),
    keep: (d, w) => (w.v.occurrenceId = d.occurrences[0].id),
  },
  'GET /api/projects/{slug}/bugs/{number}/screenshots': { params: (w) => ({ number: w.v.sdkNumber! }) },
  'GET /api/projects/{slug}/bugs/{number}/occurrences/distribution': { params: (w) => ({ number: w.v.sdkNumber! }) },
  'POST /api/projects/{slug}/bugs/{number}/split': {
    params: (w) => ({ number: w.v.sdkNumber! }),
    body: (w) => ({ occurrence_ids: [w.v.occurrenceId] }),
    keep: (d, w) => (w.v.splitNumber = String(d.report_number)),
  },
  // ...and merging the split report back folds its occurrence in again.
  'POST /api/projects/{slug}/bugs/{number}/merge': { params: (w) => ({ number: w.v.sdkNumber! }), body: (w) => ({ numbers: [Number(w.v.splitNumber)] }) },
  'GET /api/projects/{slug}/bugs/{number}/trend': { params: (w) => ({ number: w.v.sdkNumber! }) },
  'GET /api/projects/{slug}/bugs/{number}/tags': { params: (w) => ({ number: w.v.sdkNumber! }) },
}
