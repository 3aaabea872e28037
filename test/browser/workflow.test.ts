import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('report workflow in a browser: dependencies, saved views, workflow settings', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: me.token, body })
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
  const titles = async () => (await h.page.locator('.report-table tbody tr td.report-title-cell a').allTextContents()).map((t) => t.trim())

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Wanda Workflow' })
    const project = await call('POST', '/api/projects', { name: 'Star Courier' })
    slug = project.body.data.slug
    for (const title of ['Engine refuses to start', 'Cargo bay door stuck', 'Radio static in menus']) {
      expect((await call('POST', `/api/projects/${slug}/bugs`, { title, description: 'Seen in the beta' })).status).toBe(201)
    }
  })
  afterAll(() => h?.close())

  it('links two reports from the report page; each side shows the link and the list filters blocked reports', async () => {
    await h.page.goto(`/projects/${slug}/reports/2`)
    const deps = h.page.getByRole('region', { name: 'Dependencies' })
    await poll(() => deps.getByText('No dependencies.').count()).toBe(1)
    await deps.getByLabel('This report').selectOption('blocked_by')
    await deps.getByLabel('Report number').fill('#1')
    await deps.getByRole('button', { name: 'Add dependency' }).click()
    await poll(() => deps.getByRole('link', { name: '#1 Engine refuses to start' }).count()).toBe(1)
    expect(await deps.getByRole('listitem').filter({ hasText: 'Blocked by #1' }).count()).toBe(1)
    await h.screenshot('workflow-report-dependencies')

    // A cycle is refused with the chain named.
    await h.page.goto(`/projects/${slug}/reports/1`)
    const other = h.page.getByRole('region', { name: 'Dependencies' })
    await poll(() => other.getByRole('link', { name: '#2 Cargo bay door stuck' }).count()).toBe(1)
    await other.getByLabel('This report').selectOption('blocked_by')
    await other.getByLabel('Report number').fill('2')
    await other.getByRole('button', { name: 'Add dependency' }).click()
    await poll(() => other.getByRole('alert').textContent()).toContain('cycle')

    await h.page.goto(`/projects/${slug}/reports?blocked=true`)
    await poll(titles).toEqual(['Cargo bay door stuck'])
    expect(await h.page.getByLabel('Blocked', { exact: true }).inputValue()).toBe('true')
  })

  it('saves the current list as a pinned view and opens it again from its tab', async () => {
    await h.page.goto(`/projects/${slug}/reports?blocked=true`)
    await poll(titles).toEqual(['Cargo bay door stuck'])
    await h.page.getByRole('button', { name: 'Save view' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Save this view' })
    await dialog.getByLabel('View name').fill('Blocked work')
    await dialog.getByRole('button', { name: 'Save view' }).click()
    const tabs = h.page.getByRole('navigation', { name: 'Saved views' })
    await poll(() => tabs.getByRole('link', { name: 'Blocked work' }).count()).toBe(1)

    await tabs.getByRole('link', { name: 'All reports' }).click()
    await poll(async () => (await titles()).length).toBe(3)
    await tabs.getByRole('link', { name: 'Blocked work' }).click()
    await poll(titles).toEqual(['Cargo bay door stuck'])
    expect(new URL(h.page.url()).searchParams.get('blocked')).toBe('true')
    await h.screenshot('workflow-saved-view')
    const saved = await call('GET', '/api/saved-views')
    expect(saved.body.data.map((v: { name: string; pinned: boolean; position: number }) => [v.name, v.pinned, v.position])).toEqual([['Blocked work', true, 0]])
  })

  it('defines a custom field and an SLA rule in the workflow settings', async () => {
    await h.page.goto(`/projects/${slug}/settings/workflow`)
    await h.page.getByRole('button', { name: 'Add field' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Add custom field' })
    await dialog.getByLabel('Field name').fill('Build')
    await dialog.getByLabel('Field type').selectOption('select')
    await dialog.getByLabel('Options').fill('beta, release')
    await dialog.getByRole('button', { name: 'Add field' }).click()
    await poll(() => h.page.getByRole('table', { name: 'Custom fields' }).getByText('beta, release').count()).toBe(1)

    await h.page.getByLabel('High: response hours').fill('4')
    await h.page.getByLabel('High: resolve hours').fill('48')
    await h.page.getByRole('button', { name: 'Save SLA rules' }).click()
    await poll(async () => (await call('GET', `/api/projects/${slug}/sla`)).body.data.rules).toEqual([{ priority: 'high', response_hours: 4, resolve_hours: 48 }])
    await h.screenshot('workflow-settings')
  })
})
