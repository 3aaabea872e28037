import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../helpers/server-process'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'
import { fakeDiscord, fakeGithub, fakeLinear, fakePlay, fakeSlack, fakeSteam, GOOD_KEY, serviceAccountKey } from './integrations-fakes'

describeBrowser('the integrations screen in a browser', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  let apiKey: string
  let slack: ReturnType<typeof fakeSlack>
  let linear: ReturnType<typeof fakeLinear>
  let steam: ReturnType<typeof fakeSteam>
  let play: ReturnType<typeof fakePlay>
  let discord: ReturnType<typeof fakeDiscord>
  let github: ReturnType<typeof fakeGithub>
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 250 })

  beforeAll(async () => {
    slack = fakeSlack()
    linear = fakeLinear()
    steam = fakeSteam()
    play = fakePlay()
    discord = fakeDiscord()
    github = fakeGithub()
    // The Slack provider posts to the webhook URL the user pastes (no base-URL override); the SSRF guard
    // lets it reach 127.0.0.1 only with private targets allowed. The other providers take the operator's base-URL overrides.
    h = await startBrowser({
      env: {
        GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true',
        GLITCHBOX_PROVIDER_URL_LINEAR: linear.url,
        GLITCHBOX_PROVIDER_URL_STEAM: steam.url,
        GLITCHBOX_PROVIDER_URL_GOOGLE_OAUTH: play.url,
        GLITCHBOX_PROVIDER_URL_GOOGLE_PLAY: play.url,
        GLITCHBOX_PROVIDER_URL_DISCORD: discord.url,
        GLITCHBOX_PROVIDER_URL_GITHUB: github.url,
      },
    })
    me = await h.signUp({ name: 'Ines Integrations' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Comet Drift' } })
    expect(project.status).toBe(201)
    ;({ slug, api_key: apiKey } = project.body.data)
  })
  afterAll(async () => {
    await h?.close()
    slack?.stop()
    linear?.stop()
    steam?.stop()
    play?.stop()
    discord?.stop()
    github?.stop()
  })

  it('lists providers by kind with the credential each needs and where to get it; no plan badge without billing', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    await poll(() => h.page.getByRole('button', { name: 'Connect Slack' }).count()).toBe(1)
    for (const kind of ['Chat', 'Alerting', 'Issue trackers', 'Crash link', 'Stores']) expect(await h.page.getByRole('region', { name: kind, exact: true }).count()).toBe(1)
    const link = h.page.getByRole('link', { name: 'Where to get it (the Slack Incoming webhook URL)', exact: true })
    expect(await link.getAttribute('href')).toBe('https://api.slack.com/messaging/webhooks')
    // The connections load apart from the providers: on a slower database they arrive after the buttons.
    await poll(() => h.page.getByRole('region', { name: 'Connections' }).getByText('No connections yet').count()).toBe(1)
    // This server has no billing: plans are no concept here, so no "Pro plan" badge (issue 24).
    expect(await h.page.getByRole('listitem', { name: 'Jira' }).count()).toBe(1)
    expect(await h.page.getByText(/Pro plan|tier \d/).count()).toBe(0)
    await h.screenshot('integrations-providers')
  })

  it('connects Slack to a fake webhook, tests it, and shows a filed report as a succeeded delivery', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    await h.page.getByRole('button', { name: 'Connect Slack' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Connect Slack' })
    const secret = dialog.getByLabel('Incoming webhook URL')
    expect(await secret.getAttribute('type')).toBe('password')
    expect(await dialog.getByLabel('Report created').isChecked()).toBe(true)
    expect(await dialog.getByLabel('Comment added').isChecked()).toBe(false)
    await secret.fill(`${slack.url}/services/T000/B000/secret-a1b2`)
    await dialog.getByLabel('Connection name').fill('Bugs channel')
    await dialog.getByLabel('Minimum priority').selectOption('low')
    await h.screenshot('integrations-connect-slack')
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click()

    const connections = h.page.getByRole('region', { name: 'Connections' })
    await poll(() => connections.getByText('Bugs channel').count()).toBe(1)
    expect(await connections.getByText('…a1b2').count()).toBe(1)
    expect(await connections.getByText('active', { exact: true }).count()).toBe(1)

    await h.page.getByRole('button', { name: 'Test Bugs channel' }).click()
    await poll(() => connections.getByRole('status').textContent()).toBe('Test message posted to Slack')
    expect(slack.received).toHaveLength(1)

    const filed = await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: 'Ship clips through the asteroid', description: 'Flying into the big asteroid at full speed goes straight through it', priority: 'high' } })
    expect(filed.status).toBe(201)
    await poll(() => slack.received.some((m) => JSON.stringify(m.body).includes('Ship clips through the asteroid'))).toBe(true)
    expect(slack.received.every((m) => m.path === '/services/T000/B000/secret-a1b2')).toBe(true)

    await h.page.getByRole('button', { name: 'Deliveries of Bugs channel' }).click()
    const deliveries = h.page.getByRole('dialog', { name: 'Deliveries of Bugs channel' })
    // The report's post, beside the test message sent above (a test is listed as a delivery too).
    const reportRow = deliveries.getByRole('row').filter({ has: h.page.getByRole('cell', { name: /Report created/ }) })
    await poll(async () => {
      if ((await reportRow.getByText('succeeded', { exact: true }).count()) === 0) await deliveries.getByRole('button', { name: 'Refresh' }).click()
      return reportRow.getByText('succeeded', { exact: true }).count()
    }).toBe(1)
    expect(await deliveries.getByRole('row').filter({ has: h.page.getByRole('cell', { name: 'Test', exact: true }) }).getByText('succeeded', { exact: true }).count()).toBe(1)
    expect(await deliveries.getByText('ok', { exact: true }).count()).toBe(1)
    await h.screenshot('integrations-deliveries')
    await deliveries.getByRole('button', { name: 'Close' }).click()

    await h.page.getByRole('button', { name: 'Pause Bugs channel' }).click()
    await poll(() => connections.getByText('paused', { exact: true }).count()).toBe(1)
    await h.page.getByRole('button', { name: 'Resume Bugs channel' }).click()
    await poll(() => connections.getByText('active', { exact: true }).count()).toBe(1)
  })

  it('shows the test failure as the provider answered it', async () => {
    slack.stop()
    await h.page.goto(`/projects/${slug}/integrations`)
    await h.page.getByRole('button', { name: 'Test Bugs channel' }).click()
    const connections = h.page.getByRole('region', { name: 'Connections' })
    await poll(() => connections.getByRole('status').textContent()).toMatch(/Slack could not be reached/)
    await h.screenshot('integrations-test-failed')
  })

  it('shows the linked-issues panel on the report page and the store reviews screen empty', async () => {
    await h.page.goto(`/projects/${slug}/reports/1`)
    const panel = h.page.getByRole('region', { name: 'Linked issues' })
    await poll(() => panel.getByText('Not linked to any issue yet.').count()).toBe(1)
    expect(await panel.getByRole('link', { name: 'connect one' }).count()).toBe(1)
    await h.screenshot('integrations-report-linked-issues')

    await h.page.goto(`/projects/${slug}/store-reviews?max_rating=2`)
    await poll(() => h.page.getByRole('heading', { name: 'No reviews' }).count()).toBe(1)
    expect(await h.page.getByLabel('Max rating').inputValue()).toBe('2')
  })

  it('connects Linear through the target picker (its refusal shown as it answered) and files the report from the report page', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    await h.page.getByRole('button', { name: 'Connect Linear' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Connect Linear' })
    await dialog.getByLabel('Personal API key').fill('lin_api_bad_0123456789abcdef')
    await dialog.getByRole('button', { name: 'Load targets' }).click()
    await poll(() => dialog.getByRole('alert').textContent()).toBe('Linear answered 400: Authentication required, not authenticated')

    await dialog.getByLabel('Personal API key').fill(GOOD_KEY)
    await dialog.getByRole('button', { name: 'Load targets' }).click()
    const target = dialog.getByLabel('Target (Team id)')
    await poll(() => target.locator('option').allTextContents()).toEqual(['GAME / Game', 'WEB / Web'])
    await target.selectOption('team-game')
    // Filed by hand below, not for every new report.
    await dialog.getByLabel('Report created').uncheck()
    await h.screenshot('integrations-connect-linear')
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click()
    const connections = h.page.getByRole('region', { name: 'Connections' })
    await poll(() => connections.getByText('Linear', { exact: true }).count()).toBe(1)

    // Edit: the saved credential lists the targets again; only what changed is sent.
    await h.page.getByRole('button', { name: 'Edit Linear' }).click()
    const edit = h.page.getByRole('dialog', { name: 'Edit Linear' })
    expect(await edit.getByLabel('Personal API key').inputValue()).toBe('')
    expect(await edit.getByLabel('Target (Team id)').inputValue()).toBe('team-game')
    await edit.getByRole('button', { name: 'Load targets' }).click()
    await poll(() => edit.getByLabel('Target (Team id)').locator('option').allTextContents()).toEqual(['GAME / Game', 'WEB / Web'])
    await edit.getByLabel('Minimum priority').selectOption('high')
    await edit.getByRole('button', { name: 'Save' }).click()
    await poll(() => connections.getByRole('cell', { name: 'high', exact: true }).count()).toBe(1)
    expect(await connections.getByText('Report updated', { exact: true }).count()).toBe(1)

    await h.page.goto(`/projects/${slug}/reports/1`)
    const panel = h.page.getByRole('region', { name: 'Linked issues' })
    await panel.getByRole('button', { name: 'File in Linear' }).click()
    await poll(() => panel.getByRole('link', { name: 'Ship clips through the asteroid' }).count()).toBe(1)
    expect(await panel.getByText('Todo', { exact: true }).count()).toBe(1)
    expect(await panel.getByRole('button', { name: 'File in Linear' }).count()).toBe(0)
    expect(linear.issues()).toBe(1)
    await h.screenshot('integrations-report-filed-in-linear')
  })

  it('connects a Steam app, syncs it and shows the score, the positive share chart, recent reviews and refund signals', async () => {
    await h.page.goto(`/projects/${slug}/integrations/steam`)
    await poll(() => h.page.getByRole('heading', { name: 'Steam is not connected' }).count()).toBe(1)
    await h.page.getByRole('link', { name: 'Connect a Steam app' }).click()
    const section = h.page.getByRole('region', { name: 'Steam' })
    await section.getByLabel('Steam app id').fill('440')
    await section.getByRole('button', { name: 'Connect Steam app' }).click()
    await poll(() => section.getByRole('link', { name: 'Steam dashboard' }).count()).toBe(1)
    await section.getByRole('link', { name: 'Steam dashboard' }).click()
    await poll(() => h.page.getByRole('heading', { name: 'Steam reviews', level: 1 }).count()).toBe(1)
    await h.page.getByRole('button', { name: 'Sync now' }).click()
    await poll(() => h.page.getByText('Mostly Positive').count()).toBe(1)
    await poll(() => h.page.getByText('67%', { exact: true }).count()).toBe(1)
    await poll(() => h.page.locator('figure.chart canvas').count()).toBe(1)
    const recent = h.page.getByRole('region', { name: 'Recent reviews' })
    await poll(() => recent.locator('li.entry').count()).toBe(3)
    const refunds = h.page.getByRole('region', { name: 'Refund signals' })
    await poll(() => refunds.getByText('Crashed twice in ten minutes, asked for a refund').count()).toBe(2)
    await h.page.getByLabel('Which reviews').selectOption('negative')
    await poll(() => recent.locator('li.entry').count()).toBe(1)
    await h.screenshot('integrations-steam-dashboard')
  })

  it('connects Google Play with its key file, syncs, filters the store reviews and replies within 350 characters', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    await h.page.getByRole('button', { name: 'Connect Google Play' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Connect Google Play' })
    await dialog.getByLabel('Service-account JSON key file').setInputFiles({ name: 'studio-game-abc123.json', mimeType: 'application/json', buffer: Buffer.from(await serviceAccountKey()) })
    await poll(() => dialog.getByText('studio-game-abc123.json').count()).toBe(1)
    await dialog.getByLabel('Package name').fill('com.studio.game')
    expect(await dialog.getByLabel('Import reviews').isChecked()).toBe(true)
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click()
    const connections = h.page.getByRole('region', { name: 'Connections' })
    await poll(() => connections.getByText('Google Play', { exact: true }).count()).toBe(1)
    await h.page.getByRole('button', { name: 'Sync Google Play' }).click()
    // The hourly import (minute 0) may have taken the two reviews first.
    await poll(() => connections.getByRole('status').textContent()).toMatch(/^Imported: 2 fetched, [02] new, 0 filed as reports$/)

    await h.page.getByRole('link', { name: 'Store reviews' }).click()
    await poll(() => h.page.locator('li.entry').count()).toBe(2)
    await h.page.getByLabel('Max rating').selectOption('2')
    await poll(() => h.page.locator('li.entry').count()).toBe(1)
    expect(new URL(h.page.url()).searchParams.get('max_rating')).toBe('2')

    await h.page.getByRole('button', { name: 'Reply to Player gp-1' }).click()
    const reply = h.page.getByLabel('Reply to Player gp-1')
    await reply.fill('x'.repeat(351))
    await poll(() => h.page.getByText('Google Play allows 350 characters').count()).toBe(1)
    expect(await h.page.getByRole('button', { name: 'Post reply' }).isDisabled()).toBe(true)
    await reply.fill('Sorry about that! Version 1.4.3 fixes the crash on launch.')
    expect(await h.page.getByText('58 / 350 characters').count()).toBe(1)
    await h.page.getByRole('button', { name: 'Post reply' }).click()
    await poll(() => h.page.getByText('Your reply').count()).toBe(1)
    expect(play.replies).toEqual([{ id: 'gp-1', text: 'Sorry about that! Version 1.4.3 fixes the crash on launch.' }])
    expect(await h.page.getByRole('button', { name: 'Edit reply to Player gp-1' }).count()).toBe(1)
    await h.screenshot('integrations-store-reviews')
  })

  it('adds a Discord channel (a URL on another host refused with the reason), tests, pauses and deletes it', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    const section = h.page.getByRole('region', { name: 'Chat channels' })
    await poll(() => section.getByText('No Discord channel yet.').count()).toBe(1)
    await section.getByRole('button', { name: 'Add Discord channel' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Add Discord channel' })
    await dialog.getByLabel('Webhook URL').fill('https://example.com/api/webhooks/1/abc')
    await dialog.getByLabel('Channel name').fill('#bugs')
    await dialog.getByRole('button', { name: 'Add channel' }).click()
    await poll(() => dialog.getByRole('alert').textContent()).toMatch(/webhook_url must be a Discord webhook URL/)
    await dialog.getByLabel('Webhook URL').fill(`${discord.url}/api/webhooks/123456/tok-en_x9z8`)
    await dialog.getByRole('button', { name: 'Add channel' }).click()
    await poll(() => section.getByText('#bugs').count()).toBe(1)
    expect(await section.getByText(/…x9z8$/).count()).toBe(1)

    await section.getByRole('button', { name: 'Test Discord channel #bugs' }).click()
    await poll(() => section.getByRole('status').textContent()).toMatch(/\(HTTP 204\)$/)
    expect(discord.received).toHaveLength(1)
    await section.getByRole('button', { name: 'Pause Discord channel #bugs' }).click()
    await poll(() => section.getByText('paused', { exact: true }).count()).toBe(1)
    await h.screenshot('integrations-chat-channels')
    await section.getByRole('button', { name: 'Delete Discord channel #bugs' }).click()
    await h.page.getByRole('dialog', { name: 'Delete Discord channel' }).getByRole('button', { name: 'Delete' }).click()
    await poll(() => section.getByText('No Discord channel yet.').count()).toBe(1)
  })

  it('connects a GitHub repository (a refused token shown as GitHub said), searches its issues, files a report as an issue and disconnects', async () => {
    await h.page.goto(`/projects/${slug}/integrations`)
    const section = h.page.getByRole('region', { name: 'Git repository' })
    await section.getByLabel('Repository URL').fill('https://github.com/studio/comet-drift')
    await section.getByLabel('Access token').fill('ghp_wrong')
    await section.getByRole('button', { name: 'Connect repository' }).click()
    await poll(() => section.getByRole('alert').textContent()).toMatch(/Bad credentials/)
    await section.getByLabel('Access token').fill('ghp_goodtoken0123456789')
    await section.getByLabel('Create an issue for every new report').check()
    await section.getByRole('button', { name: 'Connect repository' }).click()
    await poll(() => section.getByRole('link', { name: 'studio/comet-drift' }).count()).toBe(1)
    expect(await section.getByLabel('Create an issue for every new report').isChecked()).toBe(true)
    // An automatic issue GitHub refuses: the section says which report and what GitHub answered.
    github.state.refuseCreates = true
    const refused = await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: 'Ring gate does not open', description: 'The third ring gate stays shut' } })
    expect(refused.status).toBe(201)
    await poll(async () => (await h.api('GET', `/api/projects/${slug}/git`, { token: me.token })).body.data.last_auto_issue_error?.report_number ?? null).toBe(refused.body.data.report_number)
    github.state.refuseCreates = false
    await h.page.reload()
    await poll(() => section.getByText(/The last automatic issue failed/).textContent()).toMatch(new RegExp(`report #${refused.body.data.report_number}.*Resource not accessible by personal access token`))
    await h.screenshot('integrations-git-auto-issue-failed')
    await section.getByLabel('Create an issue for every new report').uncheck()
    await poll(() => h.page.getByText('Automatic issues turned off').count()).toBe(1)
    expect(await section.getByLabel('Create an issue for every new report').isChecked()).toBe(false)

    await section.getByLabel('Search issues').fill('asteroid')
    await section.getByRole('button', { name: 'Search', exact: true }).click()
    await poll(() => section.getByRole('link', { name: '#7 Asteroid collision is off' }).count()).toBe(1)
    expect(github.searches).toEqual(['repo:studio/comet-drift is:issue asteroid'])
    await h.screenshot('integrations-git')

    await h.page.goto(`/projects/${slug}/reports/1`)
    const panel = h.page.getByRole('region', { name: 'Linked issues' })
    await panel.getByRole('button', { name: 'Create GitHub issue' }).click()
    await poll(() => panel.getByRole('link', { name: '#8 Ship clips through the asteroid' }).count()).toBe(1)
    expect(github.created).toEqual(['Ship clips through the asteroid'])
    await h.screenshot('integrations-report-git-issue')
    await panel.getByRole('button', { name: 'Unlink issue' }).click()
    await poll(() => panel.getByRole('button', { name: 'Create GitHub issue' }).count()).toBe(1)

    await h.page.goto(`/projects/${slug}/integrations`)
    await section.getByRole('button', { name: 'Disconnect repository' }).click()
    await h.page.getByRole('dialog', { name: 'Disconnect repository' }).getByRole('button', { name: 'Disconnect' }).click()
    await poll(() => section.getByText('No repository connected.').count()).toBe(1)
  })

  it('shows a member without the integration and edit rights every control disabled with the reason, never a 403', async () => {
    const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: me.token, body })
    const filed = await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: 'Comet trail flickers', description: 'The trail flickers on the second lap', priority: 'low' } })
    expect(filed.status).toBe(201)
    const invite = await call('POST', '/api/account/invites', { email: 'member@studio.example', role: 'member' })
    expect(invite.status).toBe(201)
    const ctx = await h.newContext()
    // signUp lands the member's cookie in the main context: sign the owner back in there afterwards.
    const member = await h.signUp({ email: 'member@studio.example' })
    await h.signIn({ email: me.email, password: me.password })
    expect((await h.api('POST', '/api/account/invites/accept', { token: member.token, body: { token: invite.body.data.token } })).status).toBe(200)
    expect((await call('PUT', `/api/account/members/${member.user_id}/permissions`, { permissions: { 'bugs.edit': false } })).status).toBe(200)
    await h.signIn({ email: member.email, password: member.password }, ctx)
    const page = await ctx.newPage()

    await page.goto(`/projects/${slug}/integrations`)
    await poll(() => page.getByRole('button', { name: 'Test Bugs channel' }).count()).toBe(1)
    const reason = 'You need the “Integrations” permission: ask an owner or admin of the account.'
    for (const name of ['Test Bugs channel', 'Deliveries of Bugs channel', 'Delete Bugs channel', 'Connect Slack', 'Add Discord channel', 'Connect repository', 'Disconnect Steam', 'Sync Google Play']) {
      const button = page.getByRole('button', { name, exact: true })
      expect(await button.isDisabled(), name).toBe(true)
      // Disabled while the permissions load too ("Loading your permissions…"): wait for the reason.
      await expect.poll(() => button.getAttribute('title'), { message: name, timeout: 15_000 }).toBe(reason)
    }
    expect(await page.getByText('Not available to you').count()).toBe(0)
    expect(await page.getByText(/403/).count()).toBe(0)
    await h.screenshot('integrations-member', page)

    await page.goto(`/projects/${slug}/reports/${filed.body.data.report_number}`)
    const panel = page.getByRole('region', { name: 'Linked issues' })
    const file = panel.getByRole('button', { name: 'File in Linear' })
    await poll(() => file.count()).toBe(1)
    expect(await file.isDisabled()).toBe(true)
    expect(await panel.textContent()).toContain('You need the “Edit reports” permission')
  })

  it('disables Jira with the reason on a plan without it (last: moves the account to Free)', async () => {
    const set = await runCli(['admin', 'set-plan', me.email, 'free'], h.serverEnv)
    expect(set.code, set.stderr).toBe(0)
    await h.page.goto(`/projects/${slug}/integrations`)
    const jira = h.page.getByRole('listitem', { name: 'Jira' })
    await poll(() => jira.getByText("This account does not have Jira: the server's operator can add it with glitchbox admin set-plan.").count()).toBe(1)
    expect(await jira.getByRole('button', { name: 'Connect Jira' }).isDisabled()).toBe(true)
    expect(await h.page.getByRole('button', { name: 'Connect Linear' }).isEnabled()).toBe(true)
    await h.screenshot('integrations-plan-gate')
  })
})
