import { describe, expect, it } from 'vitest'
import { daySeconds, percent, ratePoint, verdictText } from './format'

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
})
