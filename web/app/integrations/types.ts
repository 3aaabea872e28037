/**
 * Types of the integration routes. Requests are `z.infer` of the server's zod schemas; the chat-channel and
 * Steam answers come from `src/docs/responses/*`; the integration answers (not documented there yet) are written
 * from what `integrations.service.ts` and `issue-links.service.ts` return. Type-only imports: nothing of the server is bundled.
 */
import type * as z from 'zod'
import type * as chatDocs from '../../../src/docs/responses/chat-channels'
import type * as discordDocs from '../../../src/docs/responses/discord'
import type * as gitDocs from '../../../src/docs/responses/git'
import type * as steamDocs from '../../../src/docs/responses/steam'
import type * as schemas from '../../../src/modules/integrations/integrations.schemas'
import type * as chatSchemas from '../../../src/modules/chat-channels/chat-channels.schemas'
import type * as discordSchemas from '../../../src/modules/discord/discord.schemas'
import type { ProviderKind, IntegrationEvent } from '../../../src/modules/integrations/providers/provider.types'

export type { ProviderKind, IntegrationEvent }

export type CreateIntegrationBody = z.infer<typeof schemas.createIntegrationBody>
export type UpdateIntegrationBody = z.infer<typeof schemas.updateIntegrationBody>
export type TargetsBody = z.infer<typeof schemas.targetsBody>
export type CreateChannelBody = z.infer<typeof chatSchemas.createChannelBody>

/** `GET /integrations/providers`, one item. */
export type ProviderView = {
  key: string
  name: string
  kind: ProviderKind
  events: IntegrationEvent[]
  default_events: IntegrationEvent[]
  plan?: 'pro'
  default_min_priority: Priority
  credential: { label: string; help: string; url: string }
  config: Record<string, string>
  /** False for providers this server lists but cannot connect yet. */
  available: boolean
}

export type Priority = 'low' | 'medium' | 'high' | 'critical'

/** `GET /projects/{slug}/integrations`, one item. */
export type Connection = {
  id: string
  provider: string
  provider_name: string
  kind: ProviderKind | null
  name: string
  secret_hint: string
  event_types: IntegrationEvent[]
  min_priority: Priority
  config: Record<string, unknown>
  is_active: boolean
  created_at: string
  updated_at: string
}

export type Target = { id: string; name: string; group?: string }

export type DeliveryAttempt = { attempt: number; status_code: number | null; duration_ms: number | null; error: string | null; response: string | null; created_at: string | null }
export type Delivery = {
  id: string
  event: string
  /** Sent by the Test button (event and action `test`). */
  is_test: boolean
  action: string
  report_id: string | null
  status: string
  attempt_count: number
  last_status_code: number | null
  last_error: string | null
  response: string | null
  next_attempt_at: string | null
  created_at: string | null
  updated_at: string | null
  attempts: DeliveryAttempt[]
}

export type IssueLink = {
  id: string
  integration_id: string
  provider: string
  provider_name: string
  external_id: string
  url: string
  title: string
  state: string | null
  created_at: string
}
export type TrackerChoice = { id: string; provider: string; provider_name: string; name: string; target: string }
export type ReportIssues = { links: IssueLink[]; trackers: TrackerChoice[] }

/** One imported store review, as `store-reviews.service.ts` shows it (not in src/docs/responses yet). */
export type StoreReview = {
  id: string
  provider: string
  integration_id: string | null
  store_review_id: string
  author: string | null
  rating: number
  title: string | null
  body: string | null
  language: string | null
  app_version: string | null
  device: string | null
  territory: string | null
  reviewed_at: string
  reply: { body: string; replied_at: string | null; state: string | null } | null
  report_number: number | null
  created_at: string
}

export type ChatChannel = chatDocs.ChatChannel
export type ChatChannelTest = chatDocs.ChatChannelTestResponse
export type SteamConnection = steamDocs.SteamConnection
export type SteamDashboard = steamDocs.SteamDashboard
export type SteamReviewPage = steamDocs.SteamReviewPage
export type SteamRefundSignals = steamDocs.SteamRefundSignals
export type SteamSyncStats = steamDocs.SteamSyncStats
export type DiscordSettings = discordDocs.DiscordSettings
export type DiscordSettingsBody = z.input<typeof discordSchemas.discordSettingsBody>
export type SteamReview = SteamReviewPage['reviews'][number]

export type GitConnection = gitDocs.GitConnection
export type GitIssue = gitDocs.GitIssue
export type GitIssueLink = gitDocs.GitIssueLink
export type GitReportIssue = gitDocs.GitReportIssueResponse
