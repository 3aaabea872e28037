// The main screens at the widths a studio's desks have (1280, 1440 and 1920 px; issue 29's walk was
// at 1440×900): list titles long enough to tell two crashes apart, the culprit frame on each row, the
// Filters popover inside the window with every filter reachable, and the report page's occurrence
// table whole, Player and Evidence included.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'

const TIMEOUT = 15_000
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: TIMEOUT, interval: 100 })
const WIDTHS = [1280, 1440, 1920] as const

/** Two crashes whose titles differ only near their end, as the walk's two "read the same". */
const TITLES = [
  '[Error] InvalidOperationException: Collection was modified while saving the player inventory to slot 2',
  '[Error] InvalidOperationException: Collection was modified while loading the player inventory from slot 2',
]

describeBrowser('the main screens at 1280, 1440 and 1920 px (issue 29)', () => {
  let h: BrowserHarness
  let slug: string
  beforeAll(async () => {
    h = await startBrowser()
    h.page.setDefaultTimeout(TIMEOUT)
    const owner = await h.signUp({ email: 'wide@studio.example' })
    const created = (await h.api('POST', '/api/projects', { token: owner.token, body: { name: 'Wide Game' } })).body.data as { slug: string; api_key: string }
    slug = created.slug
    for (const [i, title] of TITLES.entries()) {
      const fn = i === 0 ? 'InventoryStore.SaveToSlot' : 'InventoryStore.LoadFromSlot'
      for (const [player, version] of [['player-one-with-a-long-name', '1.2.0'], ['p2', '1.3.0-beta.2']]) {
        const body = {
          title,
          description: `It closed.\n\n--- Stack Trace ---\n  at ${fn} () in Assets/Scripts/Inventory/InventoryStore.cs:120\n  at GameLoop.Update () in Assets/Scripts/GameLoop.cs:40`,
          category: 'crash',
          game_version: version,
          platform: 'Windows',
          device_info: 'AMD Ryzen 7 5800X, NVIDIA GeForce RTX 3070, 32 GB',
          os_info: 'Windows 11 Pro 23H2 (10.0.22631)',
          player_id: player,
          reporter_name: `${player} the reporter`,
        }
        expect((await h.api('POST', '/api/bugs/submit', { apiKey: created.api_key, body })).status).toBeLessThan(300)
      }
    }
  })
  afterAll(() => h?.close())

  for (const width of WIDTHS) {
    it(`${width} px: the list reads each title as far as where the two crashes differ, names each culprit whole, and cuts no column`, async () => {
      await h.page.setViewportSize({ width, height: 900 })
      await h.page.goto(`/projects/${slug}/reports`)
      const links = h.page.locator('.report-title-cell .title-line > a')
      await poll(() => links.count()).toBe(2)
      const titles = await links.evaluateAll((as) =>
        as.map((a) => {
          const style = getComputedStyle(a)
          const ctx = document.createElement('canvas').getContext('2d')!
          ctx.font = style.font
          // The titles are the same up to "saving" / "loading": that word must be on screen.
          const text = a.textContent!
          const upTo = text.slice(0, Math.max(text.indexOf('saving'), text.indexOf('loading')) + 'loading'.length)
          const lines = Math.round(a.clientHeight / parseFloat(style.lineHeight))
          return { lines, room: a.clientWidth * lines, needed: ctx.measureText(upTo).width, whole: a.scrollHeight <= a.clientHeight }
        }),
      )
      for (const t of titles) expect(t.needed, JSON.stringify(t)).toBeLessThan(t.room * 0.9)
      // From 1440 px on, the whole title shows.
      if (width >= 1440) expect(titles.map((t) => t.whole)).toEqual([true, true])
      const culprits = await h.page.locator('.report-title-cell .culprit-line').evaluateAll((ls) => ls.map((l) => ({ text: l.querySelector('code')!.textContent, whole: l.scrollWidth <= l.clientWidth })))
      expect(culprits.map((c) => c.text)).toEqual(['InventoryStore.LoadFromSlot (InventoryStore.cs)', 'InventoryStore.SaveToSlot (InventoryStore.cs)'])
      for (const c of culprits) expect(c.whole).toBe(true)
      const fit = await h.page.locator('.report-table').evaluate((t) => ({ table: t.scrollWidth, wrap: t.parentElement!.clientWidth, doc: document.documentElement.scrollWidth, win: window.innerWidth }))
      expect(fit.table).toBeLessThanOrEqual(fit.wrap)
      expect(fit.doc).toBeLessThanOrEqual(fit.win)
    })

    it(`${width} px: the Filters popover stays inside the window with Game version and Category in reach`, async () => {
      await h.page.setViewportSize({ width, height: 900 })
      await h.page.goto(`/projects/${slug}/reports`)
      await h.page.getByText('Filters', { exact: true }).click()
      const panel = h.page.getByRole('group', { name: 'Filters' })
      await poll(() => panel.isVisible()).toBe(true)
      const inWindow = (el: Element) => {
        const r = el.getBoundingClientRect()
        return r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight
      }
      expect(await panel.evaluate(inWindow)).toBe(true)
      expect(await h.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      for (const name of ['Game version', 'Category']) {
        const field = panel.getByLabel(name, { exact: true })
        expect([name, await field.isVisible(), await field.evaluate(inWindow)]).toEqual([name, true, true])
      }
      await panel.getByLabel('Game version', { exact: true }).selectOption('1.3.0-beta.2')
      await h.page.waitForURL((u) => u.searchParams.get('version') === '1.3.0-beta.2')
    })

    it(`${width} px: the report page's occurrence table shows Player and Evidence whole`, async () => {
      await h.page.setViewportSize({ width, height: 900 })
      await h.page.goto(`/projects/${slug}/reports/1`)
      const table = h.page.getByRole('region', { name: /^Occurrences/ }).locator('.table-wrap')
      await poll(() => table.locator('tbody tr').count()).toBe(2)
      const m = await table.evaluate((w) => {
        const edge = w.getBoundingClientRect().right
        const col = (name: string) => [...w.querySelectorAll('thead th')].find((th) => th.textContent === name)!.getBoundingClientRect().right
        return { whole: w.scrollWidth <= w.clientWidth, player: col('Player') <= edge, evidence: col('Evidence') <= edge }
      })
      expect(m).toEqual({ whole: true, player: true, evidence: true })
      expect(await table.getByText('player-one-with-a-long-name the reporter').first().isVisible()).toBe(true)
      expect(await table.getByRole('button', { name: /the occurrence of/ }).first().isVisible()).toBe(true)
    })
  }
})
