import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { ANY_INDEX } from '../../http/json-stream/json-parser'
import { trackEvents, createEventsRepository } from '../sdk/events.service'
import { addSdkAttachment } from '../sdk/sdk-attachments.service'
import { sdkUploadBody } from '../sdk/sdk-files'
import { sdkSettingsOf } from '../sdk/sdk-settings'
import {
  eventBatchSchema,
  eventSchema,
  perfSnapshotSchema,
  replaySchema,
  sdkAttachmentSchema,
  sessionEndSchema,
  sessionStartSchema,
  submitSchema,
} from '../sdk/sdk.schemas'
import { endSession, startSession } from '../sdk/sessions.service'
import { submitFromSdk } from './submit.adapter'
import { recordPerfSnapshot, storeReplay } from '../sdk/telemetry.service'

const SDK = ['SDK']

/** What game clients call with the project's API key (spec 4.8). */
export function sdkRoutes(deps: AppDeps) {
  const eventsRepo = createEventsRepository(deps.db)
  const writes = deps.db
  // Screenshots and attachments of big bodies are decoded to disk while the body streams in.
  const submitBody = sdkUploadBody(deps, [['screenshot'], ['attachments', ANY_INDEX, 'data']])
  const attachmentBody = sdkUploadBody(deps, [['data']])
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      '/bugs/submit',
      async ({ project, body, set }) => {
        const { created, body: out } = await submitFromSdk(deps, project, body)
        set.status = created ? 201 : 200
        return out
      },
      { apiKey: true, body: submitSchema, ...submitBody, detail: { tags: SDK, summary: 'Submit a bug report from a game (201 new, 200 stacked onto an existing report)' } },
    )
    .get('/bugs/settings', ({ project, account }) => sdkSettingsOf(deps.db, project, account), { apiKey: true, detail: { tags: SDK, summary: 'SDK capture settings and widget theme' } })
    .post(
      '/bugs/:id/attachments',
      async ({ project, account, params, body, set }) => {
        const out = await addSdkAttachment(deps, project, account, params.id, body)
        set.status = 201
        return out
      },
      { apiKey: true, params: z.object({ id: z.string() }), body: sdkAttachmentSchema, ...attachmentBody, detail: { tags: SDK, summary: 'Attach a base64 file to a submitted report' } },
    )
    .post(
      '/sessions/start',
      async ({ project, body, set }) => {
        const out = await startSession(deps, project, body)
        set.status = 201
        return out
      },
      { apiKey: true, body: sessionStartSchema, detail: { tags: SDK, summary: 'Start a play session (api_key in the body)' } },
    )
    .post('/sessions/end', ({ project, body }) => endSession(deps, project, body.session_token, body.crashed ?? false), {
      apiKey: true,
      body: sessionEndSchema,
      detail: { tags: SDK, summary: 'End a play session; repeated calls change nothing' },
    })
    .post(
      '/events/track',
      async ({ project, account, body, set }) => {
        const out = await trackEvents(deps, eventsRepo, writes, project, account, [body])
        set.status = 201
        return out
      },
      { apiKey: true, body: eventSchema, detail: { tags: SDK, summary: 'Track one telemetry event (Pro and up)' } },
    )
    .post(
      '/events/track/batch',
      async ({ project, account, body, set }) => {
        const out = await trackEvents(deps, eventsRepo, writes, project, account, body.events, 'events')
        set.status = 201
        return out
      },
      { apiKey: true, body: eventBatchSchema, detail: { tags: SDK, summary: 'Track 1–50 telemetry events (Pro and up)' } },
    )
    .post(
      '/perf/snapshot',
      async ({ project, body, set }) => {
        const out = await recordPerfSnapshot(deps, project, body)
        set.status = 201
        return out
      },
      { apiKey: true, body: perfSnapshotSchema, detail: { tags: SDK, summary: 'Store a performance sample' } },
    )
    .post(
      '/session-replays',
      async ({ project, account, body, set }) => {
        const out = await storeReplay(deps, project, account, body)
        set.status = 201
        return out
      },
      { apiKey: true, body: replaySchema, parse: 'multipart/form-data', detail: { tags: SDK, summary: 'Upload a session replay (Studio)' } },
    )
}
