/**
 * The Sentry wire protocol, framework-free and without storage: what the Sentry routes call to turn a
 * request from a Sentry SDK into plain values. Every parser throws only SentryProtocolError (400/413).
 */
// decodeBody(body, contentEncoding, limits?): the body bytes with gzip/deflate/br undone; 413 past 20 MB sent or 100 MB decoded, 400 when corrupt.
// openBody(…): the same, with the decoded first line (bounded) to be had before the rest is read, and decoding within a share of the server's budget.
export { decodeBody, openBody, SENTRY_BODY_LIMITS, type BodyLimits, type SentryBody } from './decode-body'
// parseEnvelope(bytes, limits?): the envelope header and its items, JSON items (event, feedback, user_report, session, sessions) parsed; 400 malformed, 413 past 1 MB per JSON item or 1000 items.
// parseEnvelopeHeader(start): the header alone, from the body's first line.
export { parseEnvelope, parseEnvelopeHeader, ENVELOPE_LIMITS, FEEDBACK_ITEM_TYPES, JSON_ITEM_TYPES, type Envelope, type EnvelopeHeader, type EnvelopeItem, type EnvelopeLimits } from './envelope'
// parseJsonObject(bytes, what, max?): a `/store/` body (or any JSON payload) as an object; 413 past 1 MB, 400 when not a JSON object.
export { parseJsonObject, MAX_JSON_ITEM_BYTES } from './json-payload'
// sentryAuthOf(request, envelopeDsn?): the client key from X-Sentry-Auth, Authorization, ?sentry_key= or the envelope's dsn; parseDsn(dsn): a DSN's parts.
export { sentryAuthOf, parseDsn, parseAuthHeader, type SentryAuth, type Dsn } from './auth'
// mapSentryEvent(event): report fields from an event (title, description sections, exception chain, player, contexts, metadata ≤ 16 KB, fingerprint); never throws.
export { mapSentryEvent, type SentryEventMapping } from './event-mapping'
// parseFeedback(type, payload): a `user_report` or `feedback` item as {message, name, email, associatedEventId, …}, null without a message.
export { parseFeedback, type SentryFeedback } from './feedback'
// parseSessionUpdate(payload) / parseSessionAggregates(payload): `session` and `sessions` items as plain records with crash/clean outcomes.
export { parseSessionUpdate, parseSessionAggregates, outcomeOf, type SentrySessionUpdate, type SentrySessionAggregate, type SessionOutcome } from './sessions'
// SentryProtocolError: the one error above (status 400 or 413, message for Sentry's {"detail": …}).
export { SentryProtocolError } from './protocol-error'
