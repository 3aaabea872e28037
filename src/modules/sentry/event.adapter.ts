import type { StoredFile } from '../../files/storage'
import type { Project } from '../projects/projects.repository'
import type { Submission } from '../ingest/submission'
import type { SentryEventMapping } from './protocol'

/** Longest description kept (the SDK submit's limit). */
const MAX_DESCRIPTION = 50_000

/** The client as reports show it: `sentry.javascript.browser 8.1.0`, or `sentry` when the event does not say. */
export const clientOf = (sdk: { name: string; version: string } | null) => (sdk ? `${sdk.name} ${sdk.version}`.trim() : 'sentry')

/**
 * A Sentry event (mapped by protocol/event-mapping.ts) as a submission: an automatic capture with
 * its exception chain (which groups it), message, stack trace and breadcrumbs in the description,
 * the release as game version, the user as player, contexts and tags as metadata, and the event id
 * that feedback and later attachments refer to.
 */
export function submissionOfEvent(project: Project, m: SentryEventMapping, files: { screenshot?: StoredFile | null; attachments?: StoredFile[] } = {}): Submission {
  return {
    project,
    kind: 'auto',
    title: m.title || 'Sentry event',
    description: m.description.slice(0, MAX_DESCRIPTION) || m.title,
    category: m.category ?? undefined,
    platform: m.platform,
    runtime: m.runtime,
    browser: m.browser,
    environment: m.environment,
    gameVersion: m.gameVersion,
    osInfo: m.osInfo,
    deviceInfo: m.deviceInfo,
    playerId: m.playerId,
    reporterName: m.reporterName,
    reporterEmail: m.reporterEmail,
    metadata: m.metadata,
    exceptions: m.exceptions,
    fingerprint: m.fingerprint,
    client: clientOf(m.sdk),
    eventId: m.eventId,
    level: m.level,
    occurredAt: m.timestamp,
    screenshot: files.screenshot ?? null,
    attachments: files.attachments ?? [],
  }
}
