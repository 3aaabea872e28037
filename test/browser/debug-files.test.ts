// The "Debug files" path in the browser: an API token made on the account screen (shown once), used by
// the real sentry-cli to upload symbols, the upload listed on the project's "Debug files" screen with
// its module, kind, architecture, debug id and size, deleted there; the token revoked.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runSentryCli, SENTRY_CLI } from '../helpers/sentry-cli'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { debugFixture } from '../debug-files/fixture'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('debug files in the browser: token, upload with sentry-cli, list, delete', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug = ''
  let dir = ''
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 200 })

  beforeAll(async () => {
    h = await startBrowser()
    h.page.setDefaultTimeout(20_000)
    me = await h.signUp({ name: 'Sym Uploader' })
    slug = (await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Cave Diver' } })).body.data.slug
    dir = tempDir('debug-files-browser')
    mkdirSync(join(dir, 'symbols'))
    writeFileSync(join(dir, 'symbols', 'test_app.sym'), debugFixture('test_app.sym.gz'))
  }, 60_000)
  afterAll(async () => {
    await h?.close()
    if (dir) removeTempDir(dir)
  })

  it('creates a token for the project on the account screen, uploads with it, lists and deletes the file, revokes the token', async () => {
    const page = h.page
    await page.goto('/account')
    const section = page.getByRole('region', { name: 'API tokens' })
    await section.getByLabel('Token name').fill('CI symbols')
    await section.getByLabel('Acts on').selectOption(slug)
    await page.getByRole('button', { name: 'Create token' }).click()
    const shown = page.getByLabel('New API token', { exact: true })
    await poll(() => shown.count()).toBe(1)
    const token = (await shown.innerText()).trim()
    expect(token).toMatch(/^glb_/)
    await poll(() => page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'CI symbols' }).count()).toBe(1)
    expect(await page.getByRole('table', { name: 'API tokens' }).innerText()).not.toContain(token)

    const { code, out } = await runSentryCli([SENTRY_CLI, 'debug-files', 'upload', '--org', 'studio', '--project', slug, 'symbols'], dir, { SENTRY_URL: h.baseUrl, SENTRY_AUTH_TOKEN: token })
    expect(code, out).toBe(0)

    await page.goto(`/projects/${slug}/settings/debug-files`)
    const table = page.getByRole('table', { name: 'Debug files' })
    await poll(() => table.getByRole('row').filter({ hasText: 'test_app.pdb' }).count()).toBe(1)
    const row = (await table.getByRole('row').filter({ hasText: 'test_app.pdb' }).innerText()).replace(/\s+/g, ' ')
    for (const text of ['Breakpad symbols', 'x86', '5A9832E5287241C1838ED98914E9B7FF1', '0']) expect(row).toContain(text)
    await h.screenshot('debug-files-list', page)

    await page.getByRole('button', { name: 'Delete test_app.pdb' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete debug file' }).click()
    await poll(() => page.getByText('No debug files yet').count()).toBe(1)
    expect((await h.api('GET', `/api/projects/${slug}/debug-files`, { token: me.token })).body.data).toEqual([])

    await page.goto('/account')
    await page.getByRole('button', { name: 'Revoke CI symbols' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click()
    await poll(() => page.getByText('No API tokens').count()).toBe(1)
    expect((await h.api('GET', '/api/0/organizations/studio/chunk-upload/', { token })).status).toBe(401)
  }, 120_000)
})
