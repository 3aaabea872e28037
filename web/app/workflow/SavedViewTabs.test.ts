import { describe, expect, it } from 'vitest'
import { filtersOf, viewHref } from './SavedViewTabs'

describe('saved view URLs', () => {
  it('stores every filter but page and sort, and rebuilds the list URL from them', () => {
    const v = filtersOf('status=open&sla=breached&page=3&sort=due&q=crash%20OR%20freeze')
    expect(v).toEqual({ filters: { status: 'open', sla: 'breached', q: 'crash OR freeze' }, sort_by: 'due' })
    expect(viewHref('my game', v)).toBe('/projects/my%20game/reports?status=open&sla=breached&q=crash+OR+freeze&sort=due')
    expect(viewHref('g', { filters: {}, sort_by: 'newest' })).toBe('/projects/g/reports')
  })
})
