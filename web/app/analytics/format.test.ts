import { describe, expect, it } from 'vitest'
import { daySeconds, percent, ratePoint, verdictText, versionPoints } from './format'

describe('analytics formatting', () => {
  it('shows rates as percentages and chart points', () => {
    expect([percent(0.98765), percent(1), percent(null)]).toEqual(['98.77%', '100.00%', '–'])
    expect([ratePoint(0.875), ratePoint(null)]).toEqual([87.5, null])
  })
  it('turns days into chart seconds and verdicts into sentences', () => {
    expect(daySeconds(['1970-01-02'])).toEqual([86400])
    expect(verdictText('worse').tone).toBe('danger')
    expect(verdictText('not_enough_data').text).toMatch(/10\+ ended sessions/)
  })
  it('places versions at their first-seen time, oldest first, never two at one instant', () => {
    const v = [
      { first_seen: '1970-01-01T00:00:10Z', crash_free_rate: 0.5 },
      { first_seen: null, crash_free_rate: 1 },
      { first_seen: '1970-01-01T00:00:10Z', crash_free_rate: 0.9 },
      { first_seen: '1970-01-01T00:00:05Z', crash_free_rate: null },
    ]
    expect(versionPoints(v)).toEqual([
      { x: 5, y: null },
      { x: 10, y: 50 },
      { x: 11, y: 90 },
    ])
  })
})
