import { describe, expect, it } from 'vitest'
import { ago, count, counted, daySeconds, percent, pValue, ratePoint, verdictBadge } from './format'

describe('analytics formatting', () => {
  it('shows rates as a person reads them, never rounding a crash up to 100%', () => {
    expect([percent(0.98765), percent(0.884), percent(1), percent(0.99951), percent(0.999999), percent(0), percent(null)]).toEqual(['98.8%', '88.4%', '100%', '99.95%', '99.999%', '0.0%', '–'])
    expect([ratePoint(0.875), ratePoint(null)]).toEqual([87.5, null])
  })
  it('writes counts with separators and plurals, and times as "… ago"', () => {
    expect([count(5000), counted(1, 'player'), counted(2000, 'event'), counted(3, 'day')]).toEqual(['5,000', '1 player', '2,000 events', '3 days'])
    const now = Date.parse('2026-01-05T12:00:00Z')
    expect(['2026-01-05T12:00:00Z', '2026-01-05T11:59:58Z', '2026-01-05T11:57:00Z', '2026-01-05T09:00:00Z', '2026-01-01T12:00:00Z'].map((t) => ago(t, now))).toEqual(['just now', '2 s ago', '3 min ago', '3 h ago', '4 d ago'])
  })
  it('turns days into chart seconds and verdicts into words, never a key with underscores', () => {
    expect(daySeconds(['1970-01-02'])).toEqual([86400])
    expect(verdictBadge('worse').tone).toBe('danger')
    expect(verdictBadge('not_enough_data').label).toBe('not enough data')
    expect(verdictBadge('no_difference').label).toBe('no difference')
    expect([pValue(0.0004), pValue(0.004712), pValue(1)]).toEqual(['< 0.001', '0.00471', '1'])
  })
})
