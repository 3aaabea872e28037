import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TourWorld } from './tour-world'
import { raw, type Tour } from './tour.types'

const FIXTURES = join(import.meta.dirname, '..', '..', 'sentry', 'fixtures')
const sentryAuth = (w: TourWorld) => ({ 'x-sentry-auth': `Sentry sentry_key=${w.v.apiKey}, sentry_version=7, sentry_client=tour/1.0` })
const event = { event_id: 'f'.repeat(32), level: 'error', release: '1.4.2', exception: { values: [{ type: 'TypeError', value: 'gate is undefined', stacktrace: { frames: [{ function: 'openGate', filename: 'gates.js', lineno: 9, in_app: true }] } }] } }

/**
 * What Sentry's SDKs and Unreal's crash reporter send, as text (Prism reads every non-JSON body as
 * UTF-8 before forwarding it, so the binary uploads go as text: an Unreal upload that is no zlib
 * stream and a dump that is no minidump answer 400, which the tour expects and Prism checks).
 */
export const sentryTour: Tour = {
  'POST /api/{dsnId}/envelope': {
    as: 'anonymous',
    before: async (w) => (w.v.dsnId = String((await w.t.request('GET', `/api/projects/${w.v.slug}`, { token: w.owner.token })).body.data.dsn_id)),
    headers: sentryAuth,
    body: () => raw(`${JSON.stringify({ event_id: event.event_id })}\n{"type":"event"}\n${JSON.stringify(event)}\n{"type":"session"}\n{"sid":"${'e'.repeat(32)}","status":"exited","init":true,"attrs":{"release":"1.4.2"}}\n`, 'application/x-sentry-envelope'),
  },
  'POST /api/{dsnId}/store': { as: 'anonymous', headers: sentryAuth, body: () => ({ ...event, event_id: 'a'.repeat(32) }) },
  'POST /api/{dsnId}/minidump': {
    as: 'anonymous',
    headers: sentryAuth,
    body: () => {
      const form = new FormData()
      form.set('upload_file_minidump', new File(['MDMP but truncated'], 'crash.dmp'))
      return form
    },
    status: 400,
  },
  'POST /api/{dsnId}/unreal/{apiKey}': {
    as: 'anonymous',
    params: (w) => ({ apiKey: w.v.apiKey! }),
    // Unreal's upload is binary zlib; as text it is refused as no zlib stream, which is what the step checks.
    body: () => raw(readFileSync(join(FIXTURES, 'unreal', 'README.md'), 'utf8').slice(0, 200), 'application/octet-stream'),
    status: 400,
  },
}
