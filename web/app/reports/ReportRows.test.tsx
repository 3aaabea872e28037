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
      members={[{ user_id: 'u1', email: 'ada@studio.example', name: 'Ada', role: 'member', project_access: 'all', joined_at: '2026-01-01T00:00:00.000Z' }]}
      cursor={cursor}
      selected={new Set(selected)}
      onToggle={() => {}}
      onToggleAll={() => {}}
      onCursor={() => {}}
      now={Date.parse('2026-11-23T10:04:00.000Z')}
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
    // Not twice when the title already names it (auto-filed titles do).
    const sdkTitle = render([bug(3, { title: '[Error] NullReferenceException: Object reference not set', source: 'system', error_type: 'NullReferenceException' })])
    expect(sdkTitle).not.toContain('class="error-type"')
    expect(sdkTitle).not.toContain('Auto-filed')
  })

  it('shows events, players, the 14-day trend, last seen (relative, exact on hover) and the versions seen', () => {
    const sparkline = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 5, 20]
    const html = render([bug(9, { occurrence_count: 1234, player_count: 268, sparkline, last_seen: '2026-11-23T10:00:00.000Z', first_version: '1.2.0', last_version: '1.3.0', versions: ['1.3.0', '1.3.0-beta', '1.2.0'] })])
    expect(html).toContain('<td class="num">1,234</td><td class="num">268</td>')
    expect(html).toContain('aria-label="27 events in 14 days, 20 today; per day: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 5, 20"')
    // The busiest day is full height, a quiet day a baseline.
    expect(html).toContain('<rect x="52" y="0" width="3" height="16"></rect>')
    expect(html).toContain('<rect x="0" y="15" width="3" height="1" class="sparkline-empty"></rect>')
    expect(html).toMatch(/<time datetime="2026-11-23T10:00:00.000Z" title="[^"]+">4 min ago<\/time>/)
    expect(html).toContain('title="Seen in 1.3.0, 1.3.0-beta, 1.2.0">1.2.0 → 1.3.0</td>')
    expect(render([bug(1, { first_version: '', last_version: '' })])).toContain('<td class="col-versions">–</td>')
    expect(render([bug(1, { first_version: '1.3.0', last_version: '1.3.0', versions: ['1.3.0'] })])).toContain('<td class="col-versions">1.3.0</td>')
  })

  it("names the culprit frame of a crash under its title, whole on hover; none for a report grouped on its title", () => {
    const html = render([bug(6, { culprit: 'InventoryPanel.Refresh (InventoryPanel.cs)' })])
    expect(html).toContain('<div class="culprit-line"><span class="sr-only">Culprit: </span><code class="culprit" title="InventoryPanel.Refresh (InventoryPanel.cs)">InventoryPanel.Refresh (InventoryPanel.cs)</code></div>')
    expect(render([bug(7)])).not.toContain('culprit')
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
