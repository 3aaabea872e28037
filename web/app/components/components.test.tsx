import { describe, expect, it } from 'vitest'
import { render } from 'preact-render-to-string'
import { Button } from './Button'
import { Checkbox, Select, TextField } from './Field'
import { Badge, EmptyState, ErrorState, Spinner } from './States'
import { Table } from './Table'
import { UsageBar, formatBytes } from './Page'
import { CodeBlock } from './CopyButton'
import { ExternalLink } from './ExternalLink'

const noop = () => {}

describe('fields', () => {
  it('ties the label to the input and the hint and error to aria-describedby', () => {
    const html = render(<TextField label="Project name" hint="Shown on the dashboard" error="must not be empty" value="" onValue={noop} />)
    const id = /<label for="([^"]+)"/.exec(html)![1]
    expect(html).toContain(`<input id="${id}"`)
    expect(html).toContain(`aria-describedby="${id}-hint ${id}-err"`)
    expect(html).toContain('aria-invalid')
    expect(html).toContain('role="alert"')
  })
  it('gives checkboxes and selects their own labels', () => {
    const box = render(<Checkbox label="Allow search" checked onChecked={noop} />)
    const id = /<label for="([^"]+)"/.exec(box)![1]
    expect(box).toMatch(new RegExp(`<input type="checkbox" id="${id}"[^>]*checked`))
    const sel = render(<Select label="Theme" value="dark" onValue={noop} options={[{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} />)
    expect(sel).toMatch(/<label for="[^"]+">Theme<\/label><select/)
    expect(sel).toContain('<option selected value="dark">Dark</option>')
  })
})

describe('Button', () => {
  it('is a non-submitting button by default', () => {
    expect(render(<Button>Save</Button>)).toMatch(/^<button type="button" class="btn btn-secondary"/)
  })
  it('is disabled with the reason as its title when the member may not use it', () => {
    const html = render(<Button reason="You need the “Webhooks” permission">Add webhook</Button>)
    expect(html).toContain('disabled')
    expect(html).toContain('title="You need the “Webhooks” permission"')
  })
  it('shows a spinner and is disabled while busy', () => {
    const html = render(<Button busy>Save</Button>)
    expect(html).toContain('aria-busy="true"')
    expect(html).toContain('spinner')
    expect(html).toContain('disabled')
  })
})

describe('states', () => {
  it('announce loading, empty and error', () => {
    expect(render(<Spinner />)).toContain('role="status"')
    expect(render(<EmptyState title="No webhooks yet" />)).toContain('<h3>No webhooks yet</h3>')
    const err = render(<ErrorState message="project not found" onRetry={noop} />)
    expect(err).toContain('role="alert"')
    expect(err).toContain('project not found')
    expect(err).toContain('Try again')
    expect(render(<Badge tone="success">Published</Badge>)).toBe('<span class="badge badge-success">Published</span>')
  })
})

describe('Table', () => {
  it('has a caption and column headers with scope', () => {
    const html = render(<Table caption="Members" rows={[{ id: 'a', name: 'Ann' }]} rowKey={(r) => r.id} columns={[{ key: 'n', header: 'Name', render: (r) => r.name }]} />)
    expect(html).toContain('<caption class="sr-only">Members</caption>')
    expect(html).toContain('<th scope="col">Name</th>')
    expect(html).toContain('<td>Ann</td>')
  })
})

describe('UsageBar and formatBytes', () => {
  it('shows used against the limit, or unlimited', () => {
    expect(render(<UsageBar label="Seats" used={2} limit={3} />)).toContain('<meter aria-label="Seats"')
    const unlimited = render(<UsageBar label="Seats" used={2} limit={null} />)
    expect(unlimited).toContain('unlimited')
    expect(unlimited).not.toContain('<meter')
  })
  it.each([
    [0, '0 B'],
    [1536, '1.5 KB'],
    [10 * 1024 * 1024, '10 MB'],
    [1073741824, '1 GB'],
  ])('%i → %s', (n, s) => expect(formatBytes(n)).toBe(s))
})

describe('CodeBlock', () => {
  it('escapes the code and labels the copy button', () => {
    const html = render(<CodeBlock label="widget script tag" code={'<script src="x"></script>'} />)
    expect(html).toContain('<code>&lt;script src=&quot;x&quot;>&lt;/script></code>')
    expect(html).toContain('aria-label="Copy widget script tag"')
  })
})

describe('ExternalLink', () => {
  it('links an http(s) URL in a new tab without opener or referrer', () => {
    expect(render(<ExternalLink href="https://github.com/acme/game/issues/7">#7</ExternalLink>)).toBe('<a href="https://github.com/acme/game/issues/7" target="_blank" rel="noopener noreferrer">#7</a>')
  })
  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example', '/relative', '', null, undefined])('renders %j as plain text', (href) => {
    const html = render(<ExternalLink href={href}>#7 Crash</ExternalLink>)
    expect(html).toBe('<span>#7 Crash</span>')
  })
})
