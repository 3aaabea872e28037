import { eventIdOf, obj, releaseVersion, text } from './values'

/** Player feedback from a Sentry SDK, ready to become a player report. */
export interface SentryFeedback {
  message: string
  name: string | null
  email: string | null
  /** The event the feedback is about (32 hex digits), null when it names none. */
  associatedEventId: string | null
  /** The page or screen it was sent from (`contexts.feedback.url`), null when absent. */
  url: string | null
  /** `release` of a `feedback` event, null otherwise. */
  gameVersion: string | null
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const field = (v: unknown, max: number) => text(v, max)?.trim() || null
const emailOf = (v: unknown) => {
  const email = field(v, 320)
  return email && EMAIL.test(email) ? email : null
}

/**
 * Feedback from a `user_report` item (`event_id`, `name`, `email`, `comments`) or a `feedback` item
 * (an event whose `contexts.feedback` holds `message`, `name`, `contact_email`,
 * `associated_event_id`, `url`); null when it carries no message.
 */
export function parseFeedback(type: 'user_report' | 'feedback', payload: unknown): SentryFeedback | null {
  const item = obj(payload)
  if (!item) return null
  if (type === 'user_report') {
    const message = field(item.comments, 10_000)
    if (!message) return null
    return { message, name: field(item.name, 200), email: emailOf(item.email), associatedEventId: eventIdOf(item.event_id), url: null, gameVersion: null }
  }
  const feedback = obj(obj(item.contexts)?.feedback)
  const message = field(feedback?.message, 10_000)
  if (!feedback || !message) return null
  return {
    message,
    name: field(feedback.name, 200),
    email: emailOf(feedback.contact_email),
    associatedEventId: eventIdOf(feedback.associated_event_id),
    url: field(feedback.url, 2000),
    gameVersion: releaseVersion(item.release),
  }
}
