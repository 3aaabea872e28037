// Issue 25: the tracker's "Report a bug" form takes a screenshot (multipart, through the one
// ingest path of the SDK submit adapter) and carries the hooks of the suggestions script.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestProject, TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { getPage, pagesWorld, putSettings } from './pages-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
  await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true })
})
afterEach(() => t.close())

// The smallest PNG header the upload sniffer recognises, padded.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(120).fill(0)])

function form(fields: Record<string, string>, screenshot?: File) {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.set(k, v)
  if (screenshot) f.set('screenshot', screenshot)
  return f
}
const file = (report: FormData) => t.request('POST', `/tracker/${project.slug}/report`, { body: report, headers: { accept: 'text/html' } })
const fields = { title: 'Sky turns black', description: 'After the boss fight the sky is black', category: 'visual', email: 'pat@player.example' }

describe('the report form', () => {
  it('files a screenshot with the report, stored as the report screenshot', async () => {
    const res = await file(form(fields, new File([PNG], 'sky.png', { type: 'image/png' })))
    expect(res.status).toBe(201)
    expect(res.body).toContain('Your report was filed as #1.')
    // Not yet on the tracker (a new project publishes triaged reports): no link to a page that does not exist.
    expect(res.body).toContain('it appears on this page once they have looked at it')
    expect(res.body).not.toContain(`href="/tracker/${project.slug}/1"`)
    const bug = (await t.request('GET', `/api/projects/${project.slug}/bugs/1`, { token: owner.token })).body.data.bug
    expect(bug).toMatchObject({ title: 'Sky turns black', category: 'visual', reporter_email: 'pat@player.example', platform: 'web' })
    expect(bug.screenshot_url).toMatch(/^http:\/\/glitchbox\.test\/api\/files\//)
    const shot = await t.request('GET', new URL(bug.screenshot_url).pathname)
    expect(shot.status).toBe(200)
    expect(shot.headers.get('content-type')).toBe('image/png')
  })

  it('files without a screenshot when none is chosen (an empty file field)', async () => {
    const res = await file(form(fields, new File([], '', { type: 'application/octet-stream' })))
    expect(res.status).toBe(201)
    const bug = (await t.request('GET', `/api/projects/${project.slug}/bugs/1`, { token: owner.token })).body.data.bug
    expect(bug.screenshot_url).toBeNull()
  })

  it('shows the form again with the reason for a file that is not an image or is too big, and files nothing', async () => {
    const text = await file(form(fields, new File(['not an image'], 'notes.txt', { type: 'text/plain' })))
    expect(text.status).toBe(400)
    expect(text.body).toContain('The screenshot must be a PNG, JPEG, GIF or WebP image.')
    expect(text.body).toContain('value="Sky turns black"')
    const big = new Uint8Array(5 * 1024 * 1024 + 1)
    big.set(PNG)
    const tooBig = await file(form(fields, new File([big], 'big.png', { type: 'image/png' })))
    expect(tooBig.status).toBe(400)
    expect(tooBig.body).toContain('The screenshot is too big: at most 5 MB.')
    // Past the form's body limit the server refuses before reading it.
    const huge = new Uint8Array(7 * 1024 * 1024)
    huge.set(PNG)
    expect((await file(form(fields, new File([huge], 'huge.png', { type: 'image/png' })))).status).toBe(400)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs`, { token: owner.token })).body.data.total).toBe(0)
  })

  it('carries the suggestions hooks and the screenshot field, and gives the browser its voter cookie', async () => {
    const page = await getPage(t, `/tracker/${project.slug}/report`)
    expect(page.status).toBe(200)
    expect(page.body).toContain(`data-suggest="/api/tracker/${project.slug}/similar" data-vote="/api/tracker/${project.slug}/bugs/"`)
    expect(page.body).toContain('<section id="suggestions" class="suggestions" aria-labelledby="suggestions-h" aria-live="polite" hidden>')
    expect(page.body).toContain('<input id="screenshot" name="screenshot" type="file" accept="image/png,image/jpeg,image/gif,image/webp"/>')
    expect(page.body).toMatch(/<script src="\/public-assets\/vote\.[0-9a-f]{10}\.js" defer><\/script>/)
    expect(page.headers.get('set-cookie')).toMatch(/^glitchbox_voter=/)
    expect(page.body).toContain('We email you when the team replies to your report.')
  })
})
