import * as z from 'zod'
import { byKey, day, isoDate, type OperationDocs, period } from './common'
import { ReportCategory, ReportPriority, ReportStatus } from './reports'

// The answers about players, customers, game events and log lines (the analytics domain's player side).

export const Player = z.object({
  player_id: z.string(),
  name: z.string().nullable(),
  first_seen: isoDate,
  last_seen: isoDate,
  session_count: z.number().int(),
  notes: z.string(),
  sentiment: z.string().nullable(),
}).loose()
export const PlayerListResponse = z.object({ players: z.array(Player), page: z.number().int(), per_page: z.number().int(), total: z.number().int() })
export const PlayerResponse = Player.extend({
  stored_sessions: z.object({ ended: z.number().int(), crashed: z.number().int(), play_seconds: z.number() }),
  reports: z.number().int(),
})
export const PlayerSessionsResponse = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  sessions: z.array(
    z.object({
      id: z.string(),
      session_token: z.string(),
      platform: z.string().nullable(),
      game_version: z.string().nullable(),
      device_info: z.string().nullable(),
      os_info: z.string().nullable(),
      started_at: isoDate,
      ended_at: isoDate.nullable(),
      duration_sec: z.number().nullable(),
      crashed: z.boolean().nullable(),
    }),
  ),
}).loose()
export const PlayerReportsResponse = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  bugs: z.array(
    z.object({ report_number: z.number().int(), title: z.string(), status: ReportStatus, priority: ReportPriority, category: ReportCategory, game_version: z.string().nullable(), sentiment_level: z.string().nullable(), created_at: isoDate }),
  ),
}).loose()
export const CustomersOverviewResponse = z.object({
  players: z.number().int(),
  active_7_days: z.number().int(),
  active_30_days: z.number().int(),
  reporting_players: z.number().int(),
  sentiment: byKey(z.number().int()).describe('positive, neutral, negative, unrated'),
})
export const EventsResponse = z.object({ ...period, events: z.array(z.object({ name: z.string(), total: z.number().int(), daily: z.array(z.object({ day, count: z.number().int() })) })) })
export const EventsSummaryResponse = z.object({
  ...period,
  total_events: z.number().int(),
  event_names: z.number().int(),
  top_events: z.array(z.object({ name: z.string(), count: z.number().int(), session_days: z.number().int() })),
})
export const EventDetailsResponse = z.object({
  name: z.string(),
  days: z.number().int(),
  events: z.array(z.object({ id: z.number().int().describe('Event number, increasing'), created_at: isoDate, session_token: z.string().nullable(), platform: z.string().nullable(), game_version: z.string().nullable(), data: z.record(z.string(), z.unknown()) })),
})
export const LogStackResponse = z.object({
  days: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  lines: z.array(z.object({ line: z.string(), reports: z.number().int(), last_seen: isoDate })),
})

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type PlayerListResponse = z.output<typeof PlayerListResponse>
export type PlayerResponse = z.output<typeof PlayerResponse>
export type PlayerSessionsResponse = z.output<typeof PlayerSessionsResponse>
export type PlayerReportsResponse = z.output<typeof PlayerReportsResponse>
export type CustomersOverviewResponse = z.output<typeof CustomersOverviewResponse>
export type EventsResponse = z.output<typeof EventsResponse>
export type EventsSummaryResponse = z.output<typeof EventsSummaryResponse>
export type EventDetailsResponse = z.output<typeof EventDetailsResponse>
export type LogStackResponse = z.output<typeof LogStackResponse>

export const playersDocs: OperationDocs = {
  'GET /api/projects/{slug}/players': { data: PlayerListResponse },
  'GET /api/projects/{slug}/players/{playerId}': { data: PlayerResponse },
  'PATCH /api/projects/{slug}/players/{playerId}': { data: PlayerResponse },
  'GET /api/projects/{slug}/players/{playerId}/sessions': { data: PlayerSessionsResponse },
  'GET /api/projects/{slug}/players/{playerId}/bugs': { data: PlayerReportsResponse },
  'GET /api/projects/{slug}/customers/overview': { data: CustomersOverviewResponse },
  'GET /api/projects/{slug}/events': { data: EventsResponse },
  'GET /api/projects/{slug}/events/summary': { data: EventsSummaryResponse },
  'GET /api/projects/{slug}/events/{name}/details': { data: EventDetailsResponse },
  'GET /api/projects/{slug}/log-stack': { data: LogStackResponse },
}
