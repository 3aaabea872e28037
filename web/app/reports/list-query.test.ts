import { describe, expect, it } from 'vitest'
import { filterChips } from './filter-chips'
import { exportHref, filterOf, hasFilters, listApiPath, listFromReportSearch, listHref, listQueryString, newestMatching, parseListQuery, reportHref, withFilter, withPage, type ListQuery } from './list-query'

describe('parseListQuery', () => {
  it.each<[string, ListQuery]>([
    ['', { page: 1 }],
    ['?status=open&page=3', { status: 'open', page: 3 }],
    ['status=resolved&priority=high&category=crash&source=system', { status: 'resolved', priority: 'high', category: 'crash', source: 'system', page: 1 }],
    ['assigned_to=unassigned&label=lbl_1&error_type=NullReferenceException', { assigned_to: 'unassigned', label: 'lbl_1', error_type: 'NullReferenceException', page: 1 }],
    ['q=%22save+file%22+-crash+load*', { q: '"save file" -crash load*', page: 1 }],
    ['sort=priority', { sort: 'priority', page: 1 }],
    // the default sort is the absence of one, so both spellings give the same URL
    ['sort=newest', { page: 1 }],
  ])('%s', (search, expected) => {
    expect(parseListQuery(search)).toEqual(expected)
  })

  it.each([
    ['status=bogus', { page: 1 }],
    ['priority=CRITICAL', { page: 1 }],
    ['sort=random', { page: 1 }],
    ['page=0', { page: 1 }],
    ['page=-2', { page: 1 }],
    ['page=2.5', { page: 1 }],
    ['page=abc', { page: 1 }],
    ['q=+++', { page: 1 }],
    ['label=', { page: 1 }],
  ])('drops the malformed %s', (search, expected) => {
    expect(parseListQuery(search)).toEqual(expected)
  })

  it('cuts free text to the server limits so a hand-edited URL never answers 400', () => {
    const q = parseListQuery(`q=${'a'.repeat(600)}&error_type=${'E'.repeat(300)}`)
    expect(q.q).toHaveLength(500)
    expect(q.error_type).toHaveLength(200)
  })

  it('keeps a search as typed (spaces included) but not an empty one', () => {
    expect(parseListQuery('q=%20crash%20').q).toBe(' crash ')
  })
})

describe('listQueryString', () => {
  it('writes filters in a stable order, then sort and page, and leaves defaults out', () => {
    const q: ListQuery = { page: 2, sort: 'upvotes', q: 'boss fight', status: 'open', label: 'L1', assigned_to: 'unassigned' }
    expect(listQueryString(q)).toBe('?status=open&assigned_to=unassigned&label=L1&q=boss+fight&sort=upvotes&page=2')
    expect(listQueryString({ page: 1 })).toBe('')
  })

  it('round-trips every query through the URL', () => {
    const queries: ListQuery[] = [
      { page: 1 },
      { status: 'wont_fix', priority: 'low', category: 'ui', assigned_to: 'u-1', label: 'x&y=z', source: 'user', error_type: 'System.IO.IOException', q: '"a b" OR c -d e*', sort: 'updated', page: 40 },
      { q: 'ünïcødé #1 & 100%', page: 1 },
    ]
    for (const q of queries) expect(parseListQuery(listQueryString(q))).toEqual(q)
  })
})

describe('withFilter / withPage', () => {
  const base: ListQuery = { status: 'open', page: 4 }
  it('a new filter resets the page', () => {
    expect(withFilter(base, 'priority', 'high')).toEqual({ status: 'open', priority: 'high', page: 1 })
  })
  it('an empty value removes the filter', () => {
    expect(withFilter(base, 'status', '')).toEqual({ page: 1 })
    expect(withFilter({ sort: 'priority', page: 2 }, 'sort', 'newest')).toEqual({ page: 1 })
  })
  it('does not change the query it was given', () => {
    withFilter(base, 'status', undefined)
    expect(base).toEqual({ status: 'open', page: 4 })
  })
  it('pages stay whole and positive', () => {
    expect(withPage(base, 0).page).toBe(1)
    expect(withPage(base, 7.9).page).toBe(7)
  })
  it('hasFilters ignores sort and page', () => {
    expect(hasFilters({ sort: 'priority', page: 3 })).toBe(false)
    expect(hasFilters({ q: 'x', page: 1 })).toBe(true)
  })
})

describe('API paths', () => {
  it('lists with the same parameters as the page URL', () => {
    expect(listApiPath('ab-game', { status: 'open', page: 2 })).toBe('/projects/ab-game/bugs?status=open&page=2')
  })
  it('exports with status and priority only', () => {
    expect(exportHref('ab-game', { status: 'open', priority: 'high' })).toBe('/api/projects/ab-game/bugs/export?status=open&priority=high')
    expect(exportHref('ab-game', {})).toBe('/api/projects/ab-game/bugs/export')
  })
})

describe('report links remember their list', () => {
  it('carries the list query into the report URL and back', () => {
    const from: ListQuery = { status: 'open', q: 'a&b', page: 3 }
    const href = reportHref('g', 12, from)
    expect(href).toBe('/projects/g/reports/12?list=status%3Dopen%26q%3Da%2526b%26page%3D3')
    expect(listFromReportSearch(new URL(href, 'http://x').search)).toEqual(from)
    expect(listHref('g', from)).toBe('/projects/g/reports?status=open&q=a%26b&page=3')
  })
  it('the default list is still a list; a direct visit is none', () => {
    expect(listFromReportSearch(new URL(reportHref('g', 1, { page: 1 }), 'http://x').search)).toEqual({ page: 1 })
    expect(reportHref('g', 1)).toBe('/projects/g/reports/1')
    expect(listFromReportSearch('')).toBeNull()
  })
})

describe('the new-reports notice watches the list it sits on', () => {
  it('keeps every filter and the search, drops the sort and the page', () => {
    expect(newestMatching({ status: 'open', assigned_to: 'unassigned', q: 'crash', sort: 'priority', page: 4 })).toEqual({ status: 'open', assigned_to: 'unassigned', q: 'crash', page: 1 })
    expect(newestMatching({ page: 2 })).toEqual({ page: 1 })
  })
})

describe('the filters of issue 24 in the URL', () => {
  it('reads version, platform, player, grouping key and the two flags, and writes them back in order', () => {
    const q = parseListQuery('has_screenshot=true&player=7656&version=1.3.0&platform=Steam+Deck&fingerprint=abc&regression=true&regression=false&sort=players')
    expect(q).toEqual({ version: '1.3.0', platform: 'Steam Deck', player: '7656', fingerprint: 'abc', regression: 'true', has_screenshot: 'true', sort: 'players', page: 1 })
    expect(listQueryString(q)).toBe('?version=1.3.0&platform=Steam+Deck&player=7656&fingerprint=abc&regression=true&has_screenshot=true&sort=players')
    expect(parseListQuery('regression=yes&has_screenshot=1')).toEqual({ page: 1 })
  })

  it('filterOf is the query without sort and page: what a bulk action by filter sends', () => {
    expect(filterOf({ status: 'open', q: 'version:1.3.0', platform: 'Linux', sort: 'players', page: 4 })).toEqual({ status: 'open', q: 'version:1.3.0', platform: 'Linux' })
  })

  it('one removable chip per filter, named for a person; the search words stay in the box', () => {
    const chips = filterChips(
      { status: 'in_progress', assigned_to: 'u1', label: 'l1', q: 'crash', version: '1.3.0', fingerprint: '0123456789abcdef0123456789abcdef', has_screenshot: 'true', page: 1 },
      { labels: [{ id: 'l1', name: 'launch', color: '#123456' }], members: [{ user_id: 'u1', email: 'ada@studio.example', name: 'Ada', role: 'member', joined_at: '2026-01-01T00:00:00.000Z', project_access: 'all' }] },
    )
    expect(chips).toEqual([
      { key: 'status', text: 'Status: In progress' },
      { key: 'assigned_to', text: 'Assignee: Ada' },
      { key: 'label', text: 'Label: launch' },
      { key: 'version', text: 'Version: 1.3.0' },
      { key: 'fingerprint', text: 'Grouping key: 01234567…' },
      { key: 'has_screenshot', text: 'With a screenshot' },
    ])
  })

  it('keeps the sparkline choice and the trending sort in the URL, the defaults left out (issue 29)', () => {
    expect(parseListQuery('sort=trending&spark=24h')).toEqual({ sort: 'trending', spark: '24h', page: 1 })
    expect(parseListQuery('spark=14d')).toEqual({ page: 1 })
    expect(parseListQuery('spark=7d')).toEqual({ page: 1 })
    expect(listQueryString({ q: 'is:escalating', sort: 'trending', spark: '30d', page: 2 })).toBe('?q=is%3Aescalating&sort=trending&spark=30d&page=2')
    expect(withFilter({ spark: '24h', page: 3 }, 'spark', '14d')).toEqual({ page: 1 })
  })
})
