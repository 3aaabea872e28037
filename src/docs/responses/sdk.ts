import * as z from 'zod'
import { isoDate, type OperationDocs, uuid } from './common'
import { Attachment } from './attachments'
import { ReportCategory, ReportPriority } from './reports'

export const SubmitResponse = z.object({
  id: z.string().describe('Report id (a string) for /api/bugs/{id}/attachments, perf snapshots and replays'),
  report_number: z.number().int(),
  message: z.string(),
  deduplicated: z.literal(true).optional().describe('Present (true) when the submission became an occurrence of an existing report with the same grouping key (status 200)'),
  regression: z
    .object({ resolved_in_version: z.string().nullable(), version: z.string() })
    .optional()
    .describe('Present when this occurrence reopened a resolved report: it came from a newer build than the one the fix was seen in'),
  category: ReportCategory,
  priority: ReportPriority,
  sentiment_score: z.number().nullable(),
  sentiment_level: z.enum(['positive', 'neutral', 'negative']).nullable(),
  possible_duplicates: z.array(z.number().int()).describe('Report numbers of similar open reports'),
})

/** Example request of `POST /api/bugs/submit`, shown in the docs. */
export const submitRequestExample = {
  title: '[Error] NullReferenceException in PlayerController.Update',
  description: 'Fell through the floor after the second checkpoint.\n--- Stack Trace ---\nPlayerController.Update () (at Assets/Scripts/PlayerController.cs:42)',
  priority: 'high',
  category: 'crash',
  platform: 'Windows',
  game_version: '1.4.2',
  os_info: 'Windows 11 23H2',
  device_info: 'RTX 3070, 32 GB',
  steam_id: '76561198000000000',
  reporter_name: 'PlayerOne',
  screenshot: 'data:image/png;base64,iVBORw0KGgo…',
  metadata: { scene: 'Level2', position: [12.5, 0, -3] },
  auto_captured: true,
}

export const SdkSettingsResponse = z.object({
  screenshot_capture: z.boolean(),
  session_capture: z.boolean(),
  auto_file_errors: z.boolean(),
  capture_editor_errors: z.boolean(),
  capture_warnings: z.boolean(),
  widget_theme: z.object({
    primary_color: z.string(),
    background_color: z.string(),
    text_color: z.string(),
    position: z.string(),
    mode: z.string(),
    button_text: z.string(),
    background_image_url: z.string().nullable(),
  }),
})

export const SdkAttachmentResponse = Attachment
export const SessionStartResponse = z.object({ session_token: z.string(), started_at: isoDate })
export const SessionEndResponse = z.object({
  session_token: z.string(),
  started_at: isoDate,
  ended_at: isoDate,
  duration_sec: z.number().nullable(),
  crashed: z.boolean(),
})
export const TrackEventsResponse = z.object({ tracked: z.number().int() })
export const PerfSnapshotResponse = z.object({ id: uuid })
export const SessionReplayResponse = z.object({ id: uuid, file_url: z.string() })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type SubmitResponse = z.output<typeof SubmitResponse>
export type SdkSettingsResponse = z.output<typeof SdkSettingsResponse>
export type SdkAttachmentResponse = z.output<typeof SdkAttachmentResponse>
export type SessionStartResponse = z.output<typeof SessionStartResponse>
export type SessionEndResponse = z.output<typeof SessionEndResponse>
export type TrackEventsResponse = z.output<typeof TrackEventsResponse>
export type PerfSnapshotResponse = z.output<typeof PerfSnapshotResponse>
export type SessionReplayResponse = z.output<typeof SessionReplayResponse>

export const sdkDocs: OperationDocs = {
  'POST /api/bugs/submit': {
    status: 201,
    data: SubmitResponse,
    description: 'A new report',
    alsoStatus: { status: 200, description: 'An occurrence of an existing report with the same grouping key (`deduplicated: true`)' },
    errors: [403],
    example: {
      id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
      report_number: 42,
      message: 'Bug report submitted',
      category: 'crash',
      priority: 'high',
      sentiment_score: -2,
      sentiment_level: 'negative',
      possible_duplicates: [17],
    },
  },
  'GET /api/bugs/settings': { data: SdkSettingsResponse },
  'POST /api/bugs/{id}/attachments': { status: 201, data: SdkAttachmentResponse, errors: [403] },
  'POST /api/sessions/start': { status: 201, data: SessionStartResponse, errors: [403, 409] },
  'POST /api/sessions/end': { data: SessionEndResponse, errors: [404] },
  'POST /api/events/track': { status: 201, data: TrackEventsResponse, errors: [403] },
  'POST /api/events/track/batch': { status: 201, data: TrackEventsResponse, errors: [403] },
  'POST /api/perf/snapshot': { status: 201, data: PerfSnapshotResponse, errors: [404] },
  'POST /api/session-replays': { status: 201, data: SessionReplayResponse, errors: [403, 404] },
}
