// A native crash on the report page: rust-minidump's test.dmp filed after only test_app.sym was
// uploaded reads with its symbolicated frames, its other thread folded behind a button that unfolds
// it in place, and a panel naming kernel32.dll's missing symbols with the upload command for this
// project; no serious accessibility violation, light or dark.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { debugFixture, testDmp } from '../debug-files/fixture'
import { seriousViolations } from './axe'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

const sha1 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')

describeBrowser('a native crash on the report page', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug = ''
  let number = 0
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 200 })

  beforeAll(async () => {
    h = await startBrowser()
    h.page.setDefaultTimeout(20_000)
    me = await h.signUp({ name: 'Crash Reader' })
    slug = (await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Test App' } })).body.data.slug
    const project = (await h.api('GET', `/api/projects/${slug}`, { token: me.token })).body.data
    const token = (await h.api('POST', '/api/auth/api-tokens', { token: me.token, body: { name: 'CI', scopes: ['debug_files.upload'] } })).body.data.token as string
    // test_app.sym only, as sentry-cli sends it: kernel32.dll stays without symbols.
    const sym = debugFixture('test_app.sym.gz')
    const chunk = new FormData()
    chunk.append('file', new Blob([sym as Uint8Array<ArrayBuffer>]), sha1(sym))
    const auth = { authorization: `Bearer ${token}` }
    expect((await fetch(`${h.baseUrl}/api/0/organizations/studio/chunk-upload/`, { method: 'POST', headers: auth, body: chunk })).status).toBe(200)
    const assembled = await h.api('POST', `/api/0/projects/studio/${slug}/files/difs/assemble/`, { token, body: { [sha1(sym)]: { name: 'test_app.sym', chunks: [sha1(sym)] } } })
    expect(assembled.body[sha1(sym)].state).toBe('ok')
    const form = new FormData()
    form.append('upload_file_minidump', new File([testDmp() as Uint8Array<ArrayBuffer>], 'crash.dmp'))
    expect((await fetch(`${h.baseUrl}/api/${project.dsn_id}/minidump/?sentry_key=${project.api_key}`, { method: 'POST', body: form })).status).toBe(200)
    number = (await h.api('GET', `/api/projects/${slug}/bugs?sort=newest`, { token: me.token })).body.data.bugs[0].report_number
  }, 120_000)
  afterAll(() => h?.close())

  it('shows the symbolicated frames, the other thread folded until asked for, and the missing symbols with the upload command', async () => {
    const page = h.page
    await page.goto(`/projects/${slug}/reports/${number}`)
    const evidence = page.getByRole('region', { name: 'Evidence' })
    const trace = evidence.getByLabel('Stack trace', { exact: true })
    await poll(() => trace.count()).toBe(1)
    const frames = await trace.innerText()
    expect(frames).toContain("`anonymous namespace'::CrashFunction [c:\\test_app.cc : 58]")
    expect(frames).toContain('main [c:\\test_app.cc : 65]')
    expect(frames).toContain('__tmainCRTStartup [f:\\sp\\vctools\\crt_bld\\self_x86\\crt\\src\\crt0.c : 327]')
    expect(frames).not.toContain('Thread 4544')

    const unfold = evidence.getByRole('button', { name: '1 other thread' })
    expect(await unfold.getAttribute('aria-expanded')).toBe('false')
    expect(await evidence.getByLabel('Other threads').count()).toBe(0)
    await unfold.click()
    await poll(() => unfold.getAttribute('aria-expanded')).toBe('true')
    const threads = await evidence.getByLabel('Other threads').innerText()
    expect(threads).toMatch(/^Thread 4544\n {2}at ntdll\.dll\+0x/)

    const missing = evidence.getByRole('region', { name: 'Missing symbols' })
    expect((await missing.innerText()).replace(/\s+/g, ' ')).toContain('missing symbols for kernel32.dll (debug id BCE8785C57B44245A669896B6A19B9542)')
    expect(await missing.innerText()).not.toContain('test_app.exe')
    expect(await missing.getByLabel('upload command', { exact: true }).innerText()).toContain(`sentry-cli debug-files upload --org any --project ${slug} <folder with kernel32.sym>`)
    await h.screenshot('native-crash-view', page)
  })

  it('has no serious or critical accessibility violation with the threads unfolded, light and dark', async () => {
    // axe is injected as a script, which the dashboard's CSP refuses: this context bypasses it.
    const context = await h.page.context().browser()!.newContext({ bypassCSP: true, baseURL: h.baseUrl, viewport: { width: 1280, height: 800 } })
    await context.addCookies(await h.page.context().cookies())
    const page = await context.newPage()
    const found: string[] = []
    for (const theme of ['light', 'dark']) {
      await page.goto(`/projects/${slug}/reports/${number}`)
      await poll(() => page.getByRole('button', { name: '1 other thread' }).count()).toBe(1)
      await page.getByRole('button', { name: '1 other thread' }).click()
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      const violations = await seriousViolations(page)
      found.push(...violations.map((v) => `${theme} ${v}`))
    }
    await context.close()
    expect(found).toEqual([])
  })
})
