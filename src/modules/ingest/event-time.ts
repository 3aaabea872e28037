import { DAY } from '../../lib/clock'

/**
 * When an occurrence happened: the client's own time of the event (an event cached offline and sent
 * days later keeps its day), clamped to the server's clock (a clock set ahead never dates an event in
 * the future) and to the retention window (`GLITCHBOX_RETENTION_DAYS`; 0 keeps forever), so an event
 * no older than what the server keeps. Without a usable client time it is the time received.
 */
export function occurrenceTime(o: { sent: Date | null | undefined; received: Date; retentionDays: number }): Date {
  const sent = o.sent?.getTime()
  if (sent === undefined || !Number.isFinite(sent)) return o.received
  const oldest = o.retentionDays > 0 ? o.received.getTime() - o.retentionDays * DAY : -Infinity
  return new Date(Math.min(o.received.getTime(), Math.max(oldest, sent)))
}
