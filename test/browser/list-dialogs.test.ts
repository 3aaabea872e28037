import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('list screens in a browser: add and edit dialogs, delete confirmations, paging, snippet tabs', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  let apiKey: string
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: me.token, body })
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
  const toastSaid = (text: string) => poll(() => h.page.locator('.toasts').getByText(text).count()).toBe(1)

  beforeAll(async () => {
    // The webhook points at this machine (no DNS here); nothing is delivered, as no report is filed.
    h = await startBrowser({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
    me = await h.signUp({ name: 'Lena Lists' })
    const project = await call('POST', '/api/projects', { name: 'Harbor Run' })
    slug = project.body.data.slug
    apiKey = project.body.data.api_key
  })
  afterAll(() => h?.close())

  it('adds, edits and deletes a report template, and adds and deletes an alert rule', async () => {
    await h.page.goto(`/projects/${slug}/settings/workflow`)
    const templates = h.page.getByRole('table', { name: 'Report templates' })
    await h.page.getByRole('button', { name: 'Add template' }).click()
    const add = h.page.getByRole('dialog', { name: 'Add template' })
    await add.getByLabel('Template name').fill('Crash')
    await add.getByRole('button', { name: 'Add template' }).click()
    await toastSaid('Template added')
    await poll(() => add.isVisible()).toBe(false)
    await poll(() => templates.getByText('Crash', { exact: true }).count()).toBe(1)

    await templates.getByRole('button', { name: 'Edit Crash' }).click()
    const edit = h.page.getByRole('dialog', { name: 'Edit template' })
    expect(await edit.getByLabel('Template name').inputValue()).toBe('Crash')
    await edit.getByLabel('Template name').fill('Crash on load')
    await edit.getByRole('button', { name: 'Save template' }).click()
    await toastSaid('Template saved')
    await poll(() => templates.getByText('Crash on load', { exact: true }).count()).toBe(1)

    await templates.getByRole('button', { name: 'Delete Crash on load' }).click()
    const confirm = h.page.getByRole('dialog', { name: 'Delete this template?' })
    await poll(() => confirm.getByText('Reports filed from it keep their fields.').count()).toBe(1)
    await confirm.getByRole('button', { name: 'Delete template' }).click()
    await toastSaid('Template deleted')
    await poll(() => h.page.getByText('No templates yet').count()).toBe(1)
    expect((await call('GET', `/api/projects/${slug}/templates`)).body.data).toEqual([])

    await h.page.getByRole('button', { name: 'Add alert' }).click()
    const alert = h.page.getByRole('dialog', { name: 'Add alert' })
    await alert.getByLabel('Threshold').fill('5')
    await alert.getByRole('button', { name: 'Add alert' }).click()
    await toastSaid('Alert added')
    const rules = h.page.getByRole('table', { name: 'Alert rules' })
    await poll(() => rules.locator('tbody tr').count()).toBe(1)
    await rules.getByRole('button', { name: /^Delete .* alert$/ }).click()
    await h.page.getByRole('dialog', { name: 'Delete this alert rule?' }).getByRole('button', { name: 'Delete alert' }).click()
    await toastSaid('Alert deleted')
    await poll(() => h.page.getByText('No alert rules yet').count()).toBe(1)
  })

  it('adds a webhook, cancels its deletion once, then deletes it', async () => {
    await h.page.goto(`/projects/${slug}/settings/webhooks`)
    await h.page.getByRole('button', { name: 'Add webhook' }).click()
    const add = h.page.getByRole('dialog', { name: 'Add webhook' })
    await add.getByLabel('Payload URL').fill('http://127.0.0.1:9/hooks/harbor')
    await add.getByLabel('Webhook name').fill('Harbor hook')
    await add.getByRole('button', { name: 'Add webhook' }).click()
    await toastSaid('Webhook added')
    const hooks = h.page.getByRole('table', { name: 'Webhooks' })
    await poll(() => hooks.getByText('Harbor hook').count()).toBe(1)

    await hooks.getByRole('button', { name: 'Delete Harbor hook' }).click()
    const confirm = h.page.getByRole('dialog', { name: 'Delete this webhook?' })
    await poll(() => confirm.getByText('Events stop being sent to http://127.0.0.1:9/hooks/harbor.').count()).toBe(1)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await poll(() => confirm.isVisible()).toBe(false)
    expect((await call('GET', `/api/projects/${slug}/webhooks/generic`)).body.data).toHaveLength(1)

    await hooks.getByRole('button', { name: 'Delete Harbor hook' }).click()
    await confirm.getByRole('button', { name: 'Delete webhook' }).click()
    await toastSaid('Webhook deleted')
    await poll(() => h.page.getByText('No webhooks yet').count()).toBe(1)
  })

  it('edits and deletes a changelog entry, and revokes an invitation', async () => {
    expect((await call('POST', `/api/projects/${slug}/changelog`, { title: 'Harbor 1.1', body: 'Faster boats', version: '1.1.0', publish: false })).status).toBe(201)
    await h.page.goto(`/projects/${slug}/settings/changelog`)
    const entries = h.page.getByRole('list', { name: 'Changelog entries' })
    await entries.getByRole('button', { name: 'Edit Harbor 1.1' }).click()
    const edit = h.page.getByRole('dialog', { name: 'Edit changelog entry' })
    await edit.getByLabel('Entry title').fill('Harbor 1.1.1')
    await edit.getByRole('button', { name: /Save/ }).click()
    await toastSaid('Draft saved')
    await poll(() => entries.getByRole('heading', { name: /Harbor 1\.1\.1/ }).count()).toBe(1)
    await entries.getByRole('button', { name: 'Delete Harbor 1.1.1' }).click()
    await h.page.getByRole('dialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Delete entry' }).click()
    await toastSaid('Entry deleted')
    await poll(() => h.page.getByText('No changelog entries yet').count()).toBe(1)

    await h.page.goto('/team')
    await h.page.getByLabel('Email to invite').fill('deckhand@example.com')
    await h.page.getByRole('button', { name: 'Send invitation' }).click()
    const pending = h.page.getByRole('table', { name: 'Pending invitations' })
    await poll(() => pending.getByText('deckhand@example.com').count()).toBe(1)
    await pending.getByRole('button', { name: 'Revoke the invitation of deckhand@example.com' }).click()
    const confirm = h.page.getByRole('dialog', { name: 'Revoke this invitation?' })
    await poll(() => confirm.getByText('The link sent to deckhand@example.com stops working.').count()).toBe(1)
    await confirm.getByRole('button', { name: 'Revoke invitation' }).click()
    await toastSaid('Invitation revoked')
    await poll(() => h.page.getByText('No pending invitations.').count()).toBe(1)
  })

  it('pages through the audit log with the URL', async () => {
    // 51 label changes: one more entry than a page holds (50).
    for (let i = 0; i < 51; i++) expect((await call('POST', `/api/projects/${slug}/labels`, { name: `dock-${i}`, color: '#336699' })).status).toBe(201)
    await h.page.goto(`/projects/${slug}/settings/audit`)
    const pager = h.page.getByRole('navigation', { name: 'Audit log pages' })
    await poll(() => h.page.getByRole('table', { name: /^Audit log, page 1 of 2$/ }).locator('tbody tr').count()).toBe(50)
    const total = Number(/· (\d+) entries/.exec((await pager.textContent()) ?? '')![1])
    expect(total).toBeGreaterThan(50)
    expect(await pager.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true)

    await pager.getByRole('button', { name: 'Next page' }).click()
    await poll(() => h.page.getByRole('table', { name: /^Audit log, page 2 of 2$/ }).locator('tbody tr').count()).toBe(total - 50)
    expect(new URL(h.page.url()).searchParams.get('page')).toBe('2')
    expect(await pager.textContent()).toContain(`Page 2 of 2 · ${total} entries`)
    expect(await pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true)

    await pager.getByRole('button', { name: 'Previous page' }).click()
    await poll(() => h.page.getByRole('table', { name: /^Audit log, page 1 of 2$/ }).count()).toBe(1)
    expect(new URL(h.page.url()).searchParams.has('page')).toBe(false)
  })

  it('pages through the players with the URL', async () => {
    // 26 players: one more than a page holds (25).
    for (let i = 0; i < 26; i++) expect((await h.api('POST', '/api/sessions/start', { body: { api_key: apiKey, session_token: `harbor-${i}`, game_version: '1.0.0', player_id: `sailor-${i}` } })).status).toBeLessThan(300)
    await h.page.goto(`/projects/${slug}/analytics/players`)
    const pager = h.page.getByRole('navigation', { name: 'Player pages' })
    await poll(() => h.page.getByRole('table', { name: 'Players, page 1 of 2' }).locator('tbody tr').count()).toBe(25)
    expect(await pager.textContent()).toContain('Page 1 of 2 · 26 players')
    await pager.getByRole('button', { name: 'Next page' }).click()
    await poll(() => h.page.getByRole('table', { name: 'Players, page 2 of 2' }).locator('tbody tr').count()).toBe(1)
    expect(new URL(h.page.url()).searchParams.get('page')).toBe('2')
    await h.page.goBack()
    await poll(() => h.page.getByRole('table', { name: 'Players, page 1 of 2' }).count()).toBe(1)
  })

  it('shows one snippet at a time on the setup page, by tab', async () => {
    await h.page.goto(`/projects/${slug}/setup`)
    const tabs = h.page.getByRole('tablist', { name: 'Snippet', exact: true })
    // The page has other snippet tabs too (Sentry SDKs, sessions): the panel of these tabs.
    const panel = h.page.locator('.tabs').filter({ has: tabs }).getByRole('tabpanel')
    await poll(() => panel.getByLabel('curl request', { exact: true }).count()).toBe(1)
    for (const [tab, block, text] of [
      ['HTTP', 'HTTP request', 'POST /api/bugs/submit'],
      ['SDK config', 'SDK configuration', apiKey],
      ['Web widget', 'widget script tag', '/widget.js'],
      ['curl', 'curl request', 'curl -X POST'],
    ] as const) {
      await tabs.getByRole('tab', { name: tab, exact: true }).click()
      await poll(() => panel.getByLabel(block, { exact: true }).textContent()).toContain(text)
      expect(await panel.locator('pre').count()).toBe(1)
      expect(await tabs.getByRole('tab', { name: tab, exact: true }).getAttribute('aria-selected')).toBe('true')
    }
  })
})
