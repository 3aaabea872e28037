import * as z from 'zod'
import { CATEGORIES, PRIORITIES } from '../reports/reports.types'

const MB = 1024 * 1024
/** Largest decoded upload sent as base64 inside JSON (screenshot or attachment). */
export const MAX_BASE64_FILE_BYTES = 10 * MB
/** Base64 of 10 MB, plus room for a data-URL prefix. */
const MAX_BASE64_CHARS = Math.ceil((MAX_BASE64_FILE_BYTES * 4) / 3) + 256
export const MAX_METADATA_BYTES = 16 * 1024
/** Most JSON a body with base64 files may carry besides them (its text fields and metadata). */
export const MAX_JSON_BESIDE_FILES = 2 * MB
export const MAX_EVENT_DATA_BYTES = 4 * 1024
export const MAX_CUSTOM_METRICS_BYTES = 16 * 1024

const str = (max: number) => z.string().max(max)
/** Platform account ids arrive as strings or (Steam's 64-bit ids) as numbers. */
const accountId = z.union([z.string().max(200), z.number()]).transform(String)
const nullable = <T extends z.ZodType>(s: T) => s.nullish()

export const base64FileSchema = z.object({
  filename: z.string().min(1).max(255),
  mime_type: str(200).nullish(),
  data: z.string().min(1).max(MAX_BASE64_CHARS),
})

export const submitSchema = z.object({
  title: z.string().trim().min(1).max(300),
  description: z.string().min(1).max(50_000),
  priority: z.enum(PRIORITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  platform: nullable(str(100)),
  game_version: nullable(str(100)),
  os_info: nullable(str(500)),
  device_info: nullable(str(500)),
  steps_to_reproduce: nullable(str(50_000)),
  expected_behavior: nullable(str(50_000)),
  actual_behavior: nullable(str(50_000)),
  screenshot: nullable(z.string().max(MAX_BASE64_CHARS)),
  steam_id: nullable(accountId),
  player_id: nullable(accountId),
  reporter_name: nullable(str(200)),
  reporter_email: nullable(z.union([z.literal(''), z.email().max(320)])),
  metadata: z.unknown().optional(),
  attachments: z.array(base64FileSchema).max(10).optional(),
  auto_captured: z.boolean().optional(),
  /** The client's own grouping key: submissions with the same one are one report (`{{ default }}` stands for Glitchbox's). */
  fingerprint: z.array(z.string().min(1).max(200)).min(1).max(20).optional(),
})
export type SubmitInput = z.infer<typeof submitSchema>

export const sdkAttachmentSchema = base64FileSchema

const sessionToken = z.string().min(8).max(128)

export const sessionStartSchema = z.object({
  api_key: z.string().optional(),
  session_token: sessionToken,
  platform: nullable(str(100)),
  game_version: nullable(str(100)),
  device_info: nullable(str(500)),
  os_info: nullable(str(500)),
  steam_id: nullable(accountId),
  player_id: nullable(accountId),
  player_name: nullable(str(200)),
})
export type SessionStartInput = z.infer<typeof sessionStartSchema>

export const sessionEndSchema = z.object({
  api_key: z.string().optional(),
  session_token: z.string().min(1).max(128),
  crashed: z.boolean().optional(),
})

export const eventSchema = z.object({
  event_name: z.string().trim().min(1).max(100),
  event_data: z.record(z.string(), z.unknown()).nullish(),
  session_token: nullable(str(128)),
  platform: nullable(str(100)),
  game_version: nullable(str(100)),
})
export type EventInput = z.infer<typeof eventSchema>

export const eventBatchSchema = z.object({ events: z.array(eventSchema).min(1).max(50) })

const metric = z.number().nullish()
export const perfSnapshotSchema = z.object({
  bug_report_id: nullable(str(64)),
  fps: metric,
  frame_time_ms: metric,
  memory_used_mb: metric,
  memory_total_mb: metric,
  draw_calls: metric,
  triangles: metric,
  cpu_usage: metric,
  gpu_usage: metric,
  load_time_sec: metric,
  network_latency_ms: metric,
  custom_metrics: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
})
export type PerfSnapshotInput = z.infer<typeof perfSnapshotSchema>

export const replaySchema = z.object({
  bug_report_id: z.string().min(1).max(64),
  file: z.instanceof(Blob).meta({ type: 'string', format: 'binary', description: 'WebM, MP4 or GIF, at most 50 MB' }),
  duration_sec: z.coerce.number().nonnegative().optional(),
  // Multipart parsing already turns a JSON-looking field into an object.
  metadata: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
})
export type ReplayInput = z.infer<typeof replaySchema>
