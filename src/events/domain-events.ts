import type { Query } from '../db/client'
import { together } from '../db/together'

export type DomainEventType = 'bug_created' | 'bug_updated' | 'comment_added'

export interface DomainEvent {
  type: DomainEventType
  projectId: string
  reportId: string
  /** The user who caused it; null for SDK submissions and system actions. */
  actorId: string | null
  /** The report or comment as the API shows it. */
  data: Record<string, unknown>
  /** For bug_updated: field → [old, new]. */
  changes?: Record<string, [unknown, unknown]>
}

/** Reacts to an event inside the transaction that caused it, by enqueueing jobs: never by doing I/O. */
export type EventSubscriber = (tx: Query, event: DomainEvent) => void | Promise<void>

/**
 * The in-process fan-out of report events to webhooks, integrations and notifications.
 * `emit` runs in the writer's transaction, so the jobs subscribers enqueue commit or roll back with the change;
 * await it inside the write, so they are written before the commit.
 */
export class DomainEvents {
  private subscribers: EventSubscriber[] = []

  subscribe(fn: EventSubscriber): void {
    this.subscribers.push(fn)
  }

  /** Runs every subscriber side by side: their reads of the project's settings go out together (one round trip on PostgreSQL). */
  async emit(tx: Query, event: DomainEvent): Promise<void> {
    await together(this.subscribers.map(async (fn) => fn(tx, event)))
  }
}
