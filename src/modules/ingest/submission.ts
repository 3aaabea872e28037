import type { StoredFile } from '../../files/storage'
import type { Project } from '../projects/projects.repository'
import type { Category, Priority, Source } from '../reports/reports.types'
import type { ExceptionInfo } from './stack'

/**
 * A submission as every client's adapter hands it to `ingest` (ingest.service.ts): the SDK submit
 * and the widget (sdk-api/submit.adapter.ts), the public tracker's form, and Sentry's envelope, store,
 * minidump and Unreal routes (modules/sentry). Files are stored before; text is already validated.
 */
export interface Submission {
  project: Project
  /** `auto`: captured by the game on its own (errors, crashes, freezes); `player`: written by a person. */
  kind: 'auto' | 'player'
  /** Where the report came from when the client says (Discord's /report); else `system` for `auto`, `user` for `player`. */
  source?: Source
  title: string
  description: string
  stepsToReproduce?: string | null
  expectedBehavior?: string | null
  actualBehavior?: string | null
  priority?: Priority
  category?: Category
  /** The player's operating system (`Windows`), never the SDK's runtime. */
  platform?: string | null
  /** The runtime and a web game's browser, each with its version (`node` `v20.20.2`, `Chrome` `131.0`). */
  runtime?: { name: string; version: string } | null
  browser?: { name: string; version: string } | null
  /** Where the build ran as the client names it (`production`, `staging`). */
  environment?: string | null
  gameVersion?: string | null
  osInfo?: string | null
  deviceInfo?: string | null
  /** The player's platform account id (`steam_id`, Sentry's `user.id`). */
  playerId?: string | null
  reporterName?: string | null
  reporterEmail?: string | null
  /** Free JSON kept with the occurrence (at most 16 KB, checked by the adapter). */
  metadata?: unknown
  /**
   * The exception chain when the client sends it structured (Sentry, minidumps, Unreal): the
   * exception thrown first, then its causes. It names the error type and its frames (else its
   * causes' frames) group the submission. Without it the error type and the frames are read from
   * the title and the description's `--- Stack Trace ---`.
   */
  exceptions?: ExceptionInfo[]
  /** The client's own grouping (`{{ default }}` stands for Glitchbox's). */
  fingerprint?: string[] | null
  /** The client when not Glitchbox's own SDK, e.g. `sentry.python 1.9.10`. */
  client?: string | null
  /** The client's id of this event (Sentry's `event_id`), which feedback may name later. */
  eventId?: string | null
  /** The client's severity (Sentry's `level`): crash.ts reads it with the exceptions' `handled`. */
  level?: string | null
  /** When the event happened by the client's clock (Sentry's `timestamp`); clamped by event-time.ts. */
  occurredAt?: Date | null
  screenshot?: StoredFile | null
  attachments?: StoredFile[]
}
