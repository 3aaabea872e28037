import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestProject, TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { createReportIn, getPage, pagesWorld, postForm, putSettings, setReport, voterCookieOf } from './pages-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
})
afterEach(() => t.close())

const publish = (body: Record<string, unknown>) => t.request('POST', `/api/projects/${project.slug}/changelog`, { token: owner.token, body })

/** Checks that `xml` is well formed: every element closed in order (no DTDs or CDATA are produced). */
function wellFormed(xml: string): boolean {
  const stack: string[] = []
  for (const m of xml.replace(/^<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([A-Za-z][\w:.-]*)([^>]*?)(\/?)>/g)) {
    if (m[4]) continue
    if (m[1]) {
      if (stack.pop() !== m[2]) return false
    } else stack.push(m[2]!)
  }
  return stack.length === 0 && !/&(?!(?:lt|gt|amp|quot|apos|#\d+);)/.test(xml)
}

describe('GET /roadmap/{slug}', () => {
  it('is an HTML 404 until enabled, then shows one column per shown status with votes when shown', async () => {
    const open = await createReportIn(t, project, { title: 'Sky flickers' })
    const doing = await createReportIn(t, project, { title: 'Save slots vanish' })
    await setReport(t, open, { onRoadmap: true })
    await setReport(t, doing, { status: 'in_progress', upvotes: 4, onRoadmap: true })
    const hidden = await createReportIn(t, project, { title: 'Private roadmap item' })
    await setReport(t, hidden, { isPrivate: true, onRoadmap: true })
    expect((await getPage(t, `/roadmap/${project.slug}`)).status).toBe(404)
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, title: 'What we are building', statuses: ['open', 'in_progress'], show_upvotes: true })
    const res = await getPage(t, `/roadmap/${project.slug}`, '192.0.2.1')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.body).toContain('<title>What we are building</title>')
    expect(res.body).toContain('<h2 id="col-open">Open')
    expect(res.body).toContain('<h2 id="col-in_progress">In progress')
    expect(res.body).not.toContain('col-resolved')
    expect(res.body).toContain(`#${open.reportNumber} Sky flickers`)
    expect(res.body).not.toContain(`href="/tracker/${project.slug}/${open.reportNumber}"`)
    expect(res.body).not.toContain('Private roadmap item')
    expect(res.body).toContain(`data-api="/api/roadmap/${project.slug}/bugs/${doing.reportNumber}/vote"`)
    const cookie = voterCookieOf(res)
    const vote = await postForm(t, `/roadmap/${project.slug}/${doing.reportNumber}/vote`, {}, '192.0.2.1', cookie)
    expect(vote.status).toBe(303)
    expect(vote.headers.get('location')).toBe(`/roadmap/${project.slug}`)
    const after = await getPage(t, `/roadmap/${project.slug}`, '192.0.2.1', cookie)
    expect(after.body).toContain('<span class="count">5</span>')
    expect(after.body).toContain('aria-pressed="true"')
  })

  it('links each item to its tracker page while the tracker is on', async () => {
    const bug = await createReportIn(t, project, { title: 'Linked item' })
    await setReport(t, bug, { onRoadmap: true })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all' })
    const res = await getPage(t, `/roadmap/${project.slug}`)
    expect(res.body).toContain(`<a href="/tracker/${project.slug}/${bug.reportNumber}">#${bug.reportNumber} Linked item</a>`)
  })

  it('pages each column, and gives a phone one column at a time through tabs that are plain links', async () => {
    for (let i = 0; i < 23; i++) await setReport(t, await createReportIn(t, project, { title: `Open item ${i}` }), { onRoadmap: true, upvotes: i })
    await setReport(t, await createReportIn(t, project, { title: 'Doing item' }), { onRoadmap: true, status: 'in_progress' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, statuses: ['open', 'in_progress'] })
    const first = await getPage(t, `/roadmap/${project.slug}`)
    expect(first.body).toContain('<nav class="column-tabs" aria-label="Roadmap columns">')
    expect(first.body).toContain(`<a href="/roadmap/${project.slug}?status=open" aria-current="page">Open (23)</a>`)
    expect(first.body).toContain(`<a href="/roadmap/${project.slug}?status=in_progress">In progress (1)</a>`)
    // The first column is the phone's current tab; the stylesheet hides the others on narrow screens.
    expect(first.body).toContain('<section aria-labelledby="col-open" class="column current">')
    expect(first.body).toContain('<section aria-labelledby="col-in_progress" class="column">')
    expect(first.body).toContain('.columns .column:not(.current){display:none}')
    expect(first.body).toContain('Open item 22')
    expect(first.body).not.toContain('Open item 2<')
    expect(first.body).toContain(`<a href="/roadmap/${project.slug}?status=open&amp;page=2" rel="next">Next →</a>`)
    const second = await getPage(t, `/roadmap/${project.slug}?status=open&page=2`)
    expect(second.body).toContain('Page 2 of 2')
    expect(second.body).toContain('Open item 0')
    expect(second.body).not.toContain('Open item 22')
    const tab = await getPage(t, `/roadmap/${project.slug}?status=in_progress`)
    expect(tab.body).toContain('<section aria-labelledby="col-in_progress" class="column current">')
    // A bad column or page is ignored, not refused.
    expect((await getPage(t, `/roadmap/${project.slug}?status=someday&page=-1`)).status).toBe(200)
  })

  it('shows no vote buttons or counts when upvotes are hidden', async () => {
    await setReport(t, await createReportIn(t, project), { upvotes: 3 })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    const res = await getPage(t, `/roadmap/${project.slug}`)
    expect(res.body).not.toContain('vote-form')
    expect(res.body).not.toContain('<script')
    expect(res.body).toContain(`<title>${project.name} roadmap</title>`)
  })
})

describe('titles', () => {
  it("title the changelog, roadmap and tracker with the project's name, the company as subtitle, in <title> and Open Graph", async () => {
    await putSettings(t, owner, project, 'branding', { company_name: 'Forge Studio' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    const changelog = await getPage(t, `/changelog/${project.slug}`)
    expect(changelog.body).toContain('<hgroup><h1>Star Forge changelog</h1><p class="subtitle">Forge Studio</p></hgroup>')
    expect(changelog.body).toContain('<title>Star Forge changelog · Forge Studio</title>')
    expect(changelog.body).toContain('<meta property="og:title" content="Star Forge changelog · Forge Studio"/>')
    expect(changelog.body).toContain('<meta property="og:site_name" content="Forge Studio"/>')
    expect(changelog.body).toContain('<span class="brand">Star Forge</span>')
    expect((await getPage(t, `/roadmap/${project.slug}`)).body).toContain('<title>Star Forge roadmap · Forge Studio</title>')
    expect((await getPage(t, `/tracker/${project.slug}`)).body).toContain('<hgroup><h1>Star Forge known issues</h1><p class="subtitle">Forge Studio</p></hgroup>')
    expect((await t.request('GET', `/changelog/${project.slug}/feed.xml`)).body).toContain('<author><name>Star Forge</name></author>')
    // Without a company name (or the same as the project's), no subtitle and the project's name alone.
    await putSettings(t, owner, project, 'branding', { company_name: 'Star Forge' })
    const plain = await getPage(t, `/changelog/${project.slug}`)
    expect(plain.body).toContain('<hgroup><h1>Star Forge changelog</h1></hgroup>')
    expect(plain.body).toContain('<title>Star Forge changelog</title>')
    expect(plain.body).toContain('<meta property="og:site_name" content="Star Forge"/>')
  })
})

describe('GET /changelog/{slug} and its Atom feed', () => {
  it('shows published entries newest first with markdown rendered safely, and never drafts', async () => {
    await publish({ title: 'Patch 1.0', version: '1.0', body: 'First **release**', publish: true })
    t.clock.advance(60_000)
    await publish({
      title: 'Patch 1.1',
      version: '1.1',
      body: '## Fixed\n- Crash on [load](https://example.com/notes)\n- <script>alert(1)</script>\n- [bad](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=)\n<img src=x onerror=alert(1)>',
      publish: true,
    })
    await publish({ title: 'Secret draft', body: 'not yet' })
    const res = await getPage(t, `/changelog/${project.slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const html = res.body
    expect(html.indexOf('Patch 1.1')).toBeLessThan(html.indexOf('Patch 1.0'))
    expect(html).not.toContain('Secret draft')
    expect(html).toContain('<strong>release</strong>')
    expect(html).toContain('<h2>Fixed</h2>')
    expect(html).toContain('<a href="https://example.com/notes" rel="nofollow noopener noreferrer">load</a>')
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toMatch(/href="(?:javascript|data):/)
    expect(html).not.toContain('<img src=x')
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" title="${project.name} changelog" href="/changelog/${project.slug}/feed.xml"/>`)
  })

  it('serves a well-formed Atom feed of the published entries', async () => {
    await publish({ title: 'Patch <1.0> & more', version: '1.0', body: 'Fixed **the door**', publish: true })
    await publish({ title: 'Draft only', body: 'x' })
    const res = await t.request('GET', `/changelog/${project.slug}/feed.xml`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const xml: string = res.body
    expect(wellFormed(xml)).toBe(true)
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/)
    expect(xml).toContain(`<id>http://glitchbox.test/changelog/${project.slug}</id>`)
    expect(xml).toContain(`<link rel="self" type="application/atom+xml" href="http://glitchbox.test/changelog/${project.slug}/feed.xml"/>`)
    expect(xml).toMatch(/<updated>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/updated>/)
    expect(xml).toContain(`<author><name>${project.name}</name></author>`)
    expect(xml.match(/<entry>/g)).toHaveLength(1)
    expect(xml).toContain('<title>Patch &lt;1.0&gt; &amp; more (1.0)</title>')
    expect(xml).toMatch(/<id>urn:uuid:[0-9a-f-]{36}<\/id>/)
    expect(xml).toContain('<content type="html">&lt;p&gt;Fixed &lt;strong&gt;the door&lt;/strong&gt;&lt;/p&gt;')
    expect(xml).not.toContain('Draft only')
  })

  it('answers HTML 404 pages for an unknown project', async () => {
    for (const path of ['/changelog/nope', '/changelog/nope/feed.xml', '/roadmap/nope']) {
      const res = await getPage(t, path)
      expect(res.status, path).toBe(404)
      expect(res.body).toContain('Page not found')
    }
  })
})

describe('scripts', () => {
  it('serves the vote script under a versioned URL with a long cache, under 30 KB gzipped', async () => {
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all' })
    const page = await getPage(t, `/tracker/${project.slug}`)
    const src = /<script src="(\/public-assets\/vote\.[0-9a-f]{10}\.js)"/.exec(page.body)![1]!
    const res = await t.request('GET', src)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.body).toContain('vote-form')
    expect(Bun.gzipSync(new TextEncoder().encode(res.body)).length).toBeLessThan(30 * 1024)
    expect((await t.request('GET', '/public-assets/vote.0000000000.js')).status).toBe(404)
  })

  it('serves /widget.js as a script other origins may load, revalidated by ETag', async () => {
    const res = await t.request('GET', '/widget.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{10}"$/)
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(res.body).toContain('/bugs/submit')
    expect(res.body).toContain('attachShadow')
  })
})
