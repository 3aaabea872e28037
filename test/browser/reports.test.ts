import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('the report list and report page in a browser', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: me.token, body })
  // The machine running the tests may be busy: give the page time to answer.
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
  const rows = () => h.page.locator('.report-table tbody tr')
  const titles = async () => (await h.page.locator('.report-table tbody tr td.report-title-cell a').allTextContents()).map((t) => t.trim())

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Rita Reports' })
    const project = await call('POST', '/api/projects', { name: 'Moon Rally' })
    expect(project.status).toBe(201)
    slug = project.body.data.slug
    // Filed through the team route: each report is written within its request, so report numbers and
    // the list's newest-first order follow the order they are filed in.
    const file = async (body: Record<string, unknown>) => expect((await call('POST', `/api/projects/${slug}/bugs`, body)).status).toBe(201)
    await file({ title: 'Car falls through the bridge', description: 'On the moon bridge the buggy falls through', priority: 'critical', category: 'gameplay' })
    await file({ title: 'Engine sound loops forever', description: 'The engine audio never stops after a race', priority: 'low', category: 'audio' })
    await file({ title: 'Lap timer resets on pause', description: 'Pausing sets the lap timer back to zero', priority: 'high', category: 'ui' })
    await file({
      title: '[Error] NullReferenceException: Object reference not set',
      description: 'NullReferenceException in the HUD\n\n--- Stack Trace ---\n  at Hud.Update () in Assets/Hud.cs:12\n\n--- Recent Logs ---\n[Log] Race started',
    })
  })
  afterAll(() => h?.close())

  it('filters from the URL, searches, and the back button restores the previous list', async () => {
    await h.page.goto(`/projects/${slug}/reports?priority=critical`)
    await poll(titles).toEqual(['Car falls through the bridge'])
    expect(await h.page.getByLabel('Priority', { exact: true }).inputValue()).toBe('critical')

    // The controls live in the Filters menu; the active filter shows as a chip.
    expect(await h.page.getByRole('list', { name: 'Active filters' }).getByRole('listitem').first().textContent()).toBe('Priority: Critical×')
    await h.page.locator('.filter-menu summary').click()
    await h.page.getByLabel('Priority', { exact: true }).selectOption('')
    await poll(() => rows().count()).toBe(4)
    expect(new URL(h.page.url()).search).toBe('')

    await h.page.getByRole('searchbox', { name: 'Search reports' }).fill('"lap timer" OR engine')
    await h.page.keyboard.press('Enter')
    await poll(titles).toEqual(['Lap timer resets on pause', 'Engine sound loops forever'])
    expect(new URL(h.page.url()).searchParams.get('q')).toBe('"lap timer" OR engine')
    await h.screenshot('reports-list-search')

    await h.page.goBack()
    await poll(() => rows().count()).toBe(4)
    await h.page.goBack()
    await poll(titles).toEqual(['Car falls through the bridge'])
  })

  it('moves with j/k and opens with o; the report page shows the stack trace as code', async () => {
    await h.page.goto(`/projects/${slug}/reports`)
    await poll(() => rows().count()).toBe(4)
    await h.page.keyboard.press('j')
    await h.page.keyboard.press('j')
    await h.page.keyboard.press('k')
    await poll(() => h.page.locator('tr.is-current td.report-title-cell a').textContent()).toBe('Lap timer resets on pause')
    await h.page.keyboard.press('?')
    const help = h.page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await poll(() => help.isVisible()).toBe(true)
    await h.page.keyboard.press('Escape')
    // Shortcuts stay off while a dialog is open.
    await poll(() => help.isVisible()).toBe(false)
    await h.page.keyboard.press('k')
    await h.page.keyboard.press('o')
    await h.page.waitForURL(new RegExp(`/projects/${slug}/reports/4\\?list=`))
    await poll(() => h.page.getByRole('heading', { level: 1 }).textContent()).toBe('#4 [Error] NullReferenceException: Object reference not set')
    expect(await h.page.locator('pre[aria-label="Stack trace"]').textContent()).toContain('at Hud.Update () in Assets/Hud.cs:12')
    expect(await h.page.locator('pre[aria-label="Recent logs"]').textContent()).toContain('[Log] Race started')
    // Opened from the list: the next report in its order is one click away.
    await h.page.getByRole('link', { name: 'Next report' }).click()
    await h.page.waitForURL(new RegExp(`/projects/${slug}/reports/3\\?list=`))
    // On the report page j walks on through the list and u goes back to it, the cursor on the last report seen.
    await poll(() => h.page.getByRole('link', { name: 'Next report' }).count()).toBe(1)
    await h.page.keyboard.press('j')
    await h.page.waitForURL(new RegExp(`/projects/${slug}/reports/2\\?list=`))
    await poll(() => h.page.getByRole('link', { name: 'Previous report' }).count()).toBe(1)
    await h.page.keyboard.press('u')
    await h.page.waitForURL(new RegExp(`/projects/${slug}/reports$`))
    await poll(() => h.page.locator('tr.is-current td.report-title-cell a').textContent()).toBe('Engine sound loops forever')
  })

  it('changes the status and adds an internal comment from the report page', async () => {
    await h.page.goto(`/projects/${slug}/reports/1`)
    const status = h.page.getByLabel('Status', { exact: true })
    await poll(() => status.inputValue()).toBe('open')
    await status.selectOption('resolved')
    await poll(async () => (await call('GET', `/api/projects/${slug}/bugs/1`)).body.data.bug.status).toBe('resolved')

    await h.page.getByLabel('Comment', { exact: true }).fill('Fixed in https://example.com/builds/42 <b>not bold</b>')
    await h.page.getByLabel('Internal', { exact: true }).check()
    await h.page.getByRole('button', { name: 'Add comment' }).click()
    const comment = h.page.locator('.comment').filter({ hasText: 'Fixed in' })
    await poll(() => comment.count()).toBe(1)
    expect(await comment.getByRole('link', { name: 'https://example.com/builds/42' }).getAttribute('href')).toBe('https://example.com/builds/42')
    expect(await comment.locator('b').count()).toBe(0)
    expect(await comment.textContent()).toContain('Internal')
    const read = await call('GET', `/api/projects/${slug}/bugs/1`)
    expect(read.body.data.comments.map((c: { body: string; is_internal: boolean }) => [c.body, c.is_internal])).toEqual([['Fixed in https://example.com/builds/42 <b>not bold</b>', true]])
    await poll(() => h.page.locator('.timeline').textContent()).toContain('changed status from Open to Resolved')
    await h.screenshot('report-page')
  })

  it('bulk-updates and bulk-deletes the selected reports', async () => {
    await h.page.goto(`/projects/${slug}/reports`)
    await poll(() => rows().count()).toBe(4)
    await h.page.getByLabel('Select report #2').check()
    await h.page.getByLabel('Select report #3').check()
    await h.page.getByLabel('Set priority').selectOption('critical')
    await h.page.getByRole('button', { name: 'Apply to 2 selected' }).click()
    await poll(async () => (await call('GET', `/api/projects/${slug}/bugs?priority=critical`)).body.data.total).toBe(3)

    await h.page.getByRole('button', { name: 'Delete selected' }).click()
    await h.page.getByRole('dialog', { name: 'Delete 2 reports?' }).getByRole('button', { name: 'Delete' }).click()
    await poll(() => rows().count()).toBe(2)
    expect((await call('GET', `/api/projects/${slug}/bugs`)).body.data.bugs.map((b: { report_number: number }) => b.report_number)).toEqual([4, 1])
  })

  it('shows a member without edit rights the controls disabled, with the reason', async () => {
    const invite = await call('POST', '/api/account/invites', { email: 'viewer@studio.example', role: 'member' })
    expect(invite.status).toBe(201)
    const ctx = await h.newContext()
    // signUp lands the viewer's cookie in the main context: sign the owner back in there afterwards.
    const viewer = await h.signUp({ email: 'viewer@studio.example' })
    await h.signIn({ email: me.email, password: me.password })
    expect((await h.api('POST', '/api/account/invites/accept', { token: viewer.token, body: { token: invite.body.data.token } })).status).toBe(200)
    const denied = await call('PUT', `/api/account/members/${viewer.user_id}/permissions`, { permissions: { 'bugs.edit': false, 'comments.create': false } })
    expect(denied.status).toBe(200)
    await h.signIn({ email: viewer.email, password: viewer.password }, ctx)
    const page = await ctx.newPage()
    await page.goto(`/projects/${slug}/reports/1`)
    const status = page.getByLabel('Status', { exact: true })
    await poll(() => page.textContent('main')).toContain('You need the “Edit reports” permission')
    expect(await status.isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Add comment' }).count()).toBe(0)
    expect(await page.textContent('main')).toContain('You need the “Comment” permission')
    await h.screenshot('report-page-read-only', page)
  })

  it('tells a filtered list only about new reports that match its filters', async () => {
    // A context of its own with a controlled clock, so the 20 s poll runs at once.
    const ctx = await h.newContext()
    await h.signIn({ email: me.email, password: me.password }, ctx)
    const page = await ctx.newPage()
    await page.clock.install()
    await page.goto(`/projects/${slug}/reports?category=gameplay`)
    await poll(() => page.locator('.report-table tbody tr td.report-title-cell a').allTextContents()).toEqual(['Car falls through the bridge'])
    const notice = page.locator('.new-reports')
    await call('POST', `/api/projects/${slug}/bugs`, { title: 'Wheel spins in the menu', description: 'The wheel spins on the title screen', category: 'ui' })
    await page.clock.runFor(21_000)
    await page.waitForTimeout(300)
    expect(await notice.count()).toBe(0)
    await call('POST', `/api/projects/${slug}/bugs`, { title: 'Buggy flips on the ramp', description: 'The buggy flips over on the crater ramp', category: 'gameplay' })
    await page.clock.runFor(21_000)
    await poll(() => notice.textContent()).toContain('1 new matching report: show them')
    await h.screenshot('reports-list-new-reports', page)
    await notice.getByRole('button').click()
    await poll(() => page.locator('.report-table tbody tr td.report-title-cell a').first().textContent()).toBe('Buggy flips on the ramp')
    await poll(() => notice.count()).toBe(0)
    await ctx.close()
  })
})
