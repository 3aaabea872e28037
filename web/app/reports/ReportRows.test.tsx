import { renderToString } from 'preact-render-to-string'
import { describe, expect, it } from 'vitest'
import { ReportRows } from './ReportRows'
import type { ReportListItem } from './report-types'
import { ShortcutsDialog } from './ShortcutsDialog'
import { LIST_SHORTCUTS } from './shortcuts'

const bug = (n: number, over: Partial<ReportListItem> = {}): ReportListItem => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  report_number: n,
  title: `Report ${n}`,
  status: 'open',
  priority: 'medium',
  category: 'other',
  platform: null,
  game_version: null,
  assigned_to: null,
  is_private: false,
  error_type: '',
  source: 'user',
  upvotes: 0,
  occurrences: 1,
  occurrence_count: 1,
  player_count: 0,
  first_seen: '2026-11-23T10:00:00.000Z',
  last_seen: '2026-11-23T10:00:00.000Z',
  first_version: '',
  last_version: '',
  versions: [],
  labels: [],
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  sla: null,
  sparkline: new Array(14).fill(0),
  ...over,
})

const render = (bugs: ReportListItem[], cursor = 0, selected: number[] = []) =>
  renderToString(
    <ReportRows
      slug="my-game"
      query={{ status: 'open', page: 2 }}
      bugs={bugs}
      members={[{ user_id: 'u1', email: 'ada@studio.example', name: 'Ada', role: 'member', joined_at: '2026-01-01T00:00:00.000Z' }]}
      cursor={cursor}
      selected={new Set(selected)}
      onToggle={() => {}}
      onToggleAll={() => {}}
      onCursor={() => {}}
    />,
  )

describe('ReportRows', () => {
  it('renders titles as text and links them to the report, remembering the list', () => {
    const html = render([bug(7, { title: '<img src=x onerror=alert(1)> boss' })])
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)> boss')
    expect(html).toContain('href="/projects/my-game/reports/7?list=status%3Dopen%26page%3D2"')
  })

  it('labels every checkbox and marks the cursor row and the selection', () => {
    const html = render([bug(2), bug(1)], 1, [2])
    expect(html).toContain('aria-label="Select all reports on this page"')
    expect(html).toMatch(/<input type="checkbox" aria-label="Select report #2" checked/)
    expect(html).toMatch(/<tr class="is-current" aria-current="true" data-report="1"/)
  })

  it('names the assignee, flags private and auto-filed reports, and shows the error class', () => {
    const html = render([bug(3, { assigned_to: 'u1', is_private: true, source: 'system', error_type: 'NullReferenceException' }), bug(4, { assigned_to: 'gone' })])
    expect(html).toContain('<td>Ada</td>')
    expect(html).toContain('<td>Former member</td>')
    expect(html).toContain('Private')
    expect(html).toContain('Auto-filed')
    expect(html).toContain('<code class="error-type">NullReferenceException</code>')
  })

  it('uses a label color only when it is a hex color', () => {
    const html = render([bug(5, { labels: [{ id: 'a', name: 'ok', color: '#E5484D' }, { id: 'b', name: 'bad', color: 'red;background:url(x)' }] })])
    expect(html).toContain('--label-color:#E5484D')
    expect(html).not.toContain('url(x)')
    expect(html).toContain('--label-color:#2E5BFF')
  })
})

describe('ShortcutsDialog', () => {
  it('lists every shortcut with its keys when open', () => {
    const html = renderToString(<ShortcutsDialog open onClose={() => {}} shortcuts={LIST_SHORTCUTS} />)
    for (const s of LIST_SHORTCUTS) {
      expect(html).toContain(s.description)
      for (const k of s.keys) expect(html).toContain(`<kbd>${k}</kbd>`)
    }
  })
})
