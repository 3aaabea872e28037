import type { AppDeps } from '../../../app-deps'
import type { Priority } from '../../reports/reports.types'

export type ProviderKind = 'chat' | 'alerting' | 'tracker' | 'crash_link' | 'store'
export type IntegrationEvent = 'bug_created' | 'bug_updated' | 'comment_added' | 'digest' | 'reviews' | 'review_bugs'

/** What the providers route shows about a provider, and what the dashboard needs to connect one. */
export interface ProviderInfo {
  key: string
  name: string
  kind: ProviderKind
  events: IntegrationEvent[]
  defaultEvents: IntegrationEvent[]
  /** Lowest plan carrying it; absent when every plan does. */
  plan?: 'pro'
  defaultMinPriority: Priority
  credential: { label: string; help: string; url: string }
  /** Config fields the connection takes, with a short description each. */
  config: Record<string, string>
}

/** A target the connect form offers (a workspace's project, a team, a list …). */
export interface Target {
  id: string
  name: string
  group?: string
}

/** What one delivery asks the provider to do, with the event as it was when it happened. */
export interface DeliveryInput {
  event: string
  action: string
  payload: DeliveryPayload
}

/** The stored payload of a delivery. */
export interface DeliveryPayload {
  project: { id: string; slug: string; name: string }
  /** The report as webhook and integration payloads show it (reports.service serializeReportForEvent). */
  report?: Record<string, unknown>
  changes?: Record<string, [unknown, unknown]>
  /** comment_added: the comment as the API shows it. */
  comment?: Record<string, unknown>
  /** digest and alert: the message lines and a title. */
  summary?: { title: string; lines: string[]; link: string }
  at: number
}

/** A link to an item in the provider, stored on the report (a Sentry issue, a tracker issue). */
export interface ExternalLink {
  externalId: string
  url: string
  title: string
  state?: string | null
}

/** The outcome of a successful delivery: the provider's answer, and a link when one was made. */
export interface DeliveryResult {
  statusCode: number | null
  response: string
  link?: ExternalLink
}

/** Everything a provider call needs: the app's services, the decrypted credential, the connection's config. */
export interface ProviderContext {
  deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>
  secret: string
  config: Record<string, unknown>
  /** The job's or request's abort signal. */
  signal?: AbortSignal
}

/**
 * One provider behind one interface. A kind's behaviour (chat posts, alerting triggers and
 * resolves, crash links, tracker issues) is chosen by `actionsFor`; `deliver` performs one action.
 * Providers throw `ProviderError` when the tool refuses or cannot be reached and `badRequest` for
 * invalid input.
 */
export interface Provider extends ProviderInfo {
  /** Config fields that are credentials too (Trello's API key): members without project.integrations see a hint of them. */
  secretConfig?: string[]
  /** Checks the credential's form and the config, returning the config to store; 400 naming the field. */
  validate(ctx: Omit<ProviderContext, 'config'>, config: Record<string, unknown>): Promise<Record<string, unknown>>
  /** The targets the credential can reach (projects, teams, lists …); absent when a provider has none. */
  targets?(ctx: ProviderContext): Promise<Target[]>
  /** Posts a test message, or checks the credential and the target; returns what to tell the user. */
  test(ctx: ProviderContext, project: { slug: string; name: string }): Promise<string>
  /** The actions an event asks of this provider ([] for none); trackers: see tracker.ts. `alert` is a workflow alert firing. */
  actionsFor(event: { type: string; report?: Record<string, unknown>; changes?: Record<string, [unknown, unknown]> }): string[]
  /** Performs one action; `link` is what this connection linked on the report before (a filed issue), or null. */
  deliver(ctx: ProviderContext, input: DeliveryInput, link: ExternalLink | null): Promise<DeliveryResult>
}

/** The tool refused the call or could not be reached; `message` carries its answer. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
    readonly response: string | null = null,
  ) {
    super(message)
  }

  /** Any failure of a provider call as a ProviderError (a network error or a bug keeps its message). */
  static from(err: unknown): ProviderError {
    return err instanceof ProviderError ? err : new ProviderError(err instanceof Error ? err.message : String(err))
  }
}
