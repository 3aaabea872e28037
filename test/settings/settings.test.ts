import { and, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { auditLog } from '../../src/modules/activity/activity.table'
import { widgetThemeFor } from '../../src/modules/settings/settings.service'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../public/public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const url = (path: string) => `/api/projects/${project.slug}/${path}`

const defaults = {
  'tracker-settings': {
    enabled: false,
    page_title: '',
    page_description: '',
    accent_color: '',
    logo_url: '',
    allow_search: false,
    allow_upvotes: false,
    show_categories: false,
    show_priority: false,
    show_status_filter: false,
    custom_css: '',
    // A new project shows only what the team has touched, never auto-filed reports (issue 25).
    publish: 'triaged',
    include_auto_filed: false,
  },
  // The roadmap stays curated for new projects (issue 28 added the source `published` beside it).
  'roadmap-settings': { enabled: false, title: '', description: '', statuses: ['open', 'in_progress', 'resolved'], show_upvotes: false, label_id: '', source: 'curated' },
  branding: { company_name: '', logo_url: '', primary_color: '', accent_color: '', support_email: '' },
}

describe('GET and PUT tracker-settings, roadmap-settings, branding', () => {
  it.each(Object.entries(defaults))('%s reads as disabled and empty until set', async (path, expected) => {
    const res = await t.request('GET', url(path), { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: expected })
  })

  it.each(Object.keys(defaults))('%s: 401 without a session, 404 for a non-member, 403 to write without project.settings', async (path) => {
    const stranger = await createUser(t)
    const reader = await addMember(t, owner, { 'project.settings': false })
    expect((await t.request('GET', url(path))).status).toBe(401)
    expect((await t.request('GET', url(path), { token: stranger.token })).status).toBe(404)
    expect((await t.request('PUT', url(path), { token: stranger.token, body: { enabled: true } })).status).toBe(404)
    expect((await t.request('GET', url(path), { token: reader.token })).status).toBe(200)
    const denied = await t.request('PUT', url(path), { token: reader.token, body: { enabled: true, company_name: 'X' } })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({ ok: false, error: 'you need the project.settings permission' })
  })

  it('merges a partial tracker body into the stored settings and audits the changed fields', async () => {
    const first = await t.request('PUT', url('tracker-settings'), { token: owner.token, body: { enabled: true, page_title: 'Known issues', accent_color: '#FF8800' } })
    expect(first.status).toBe(200)
    const second = await t.request('PUT', url('tracker-settings'), { token: owner.token, body: { allow_search: true, custom_css: '.bug { color: red }', unknown: 1 } })
    expect(second.status).toBe(200)
    const expected = { ...defaults['tracker-settings'], enabled: true, page_title: 'Known issues', accent_color: '#FF8800', allow_search: true, custom_css: '.bug { color: red }' }
    expect(second.body.data).toEqual(expected)
    expect((await t.request('GET', url('tracker-settings'), { token: owner.token })).body.data).toEqual(expected)
    const audit = (await t.deps.db.read((q) => q.select().from(auditLog).where(and(eq(auditLog.projectId, project.id), eq(auditLog.action, 'tracker_settings.updated')))))
    expect(audit.map((a) => a.details)).toEqual([{ fields: ['enabled', 'page_title', 'accent_color'] }, { fields: ['allow_search', 'custom_css'] }])
    expect(audit[0]!.actorId).toBe(owner.user.id)
  })

  it('keeps settings per project', async () => {
    const other = await createProject(t, owner)
    await t.request('PUT', url('branding'), { token: owner.token, body: { company_name: 'Studio A' } })
    const res = await t.request('GET', `/api/projects/${other.slug}/branding`, { token: owner.token })
    expect(res.body.data.company_name).toBe('')
  })

  it('accepts short and long hex colors, http(s) URLs, a valid email, and empty strings to clear them', async () => {
    const body = { company_name: 'Pixel Forge', logo_url: 'https://cdn.example.com/logo.png', primary_color: '#abc', accent_color: '#A1B2C3', support_email: 'help@pixelforge.dev' }
    expect((await t.request('PUT', url('branding'), { token: owner.token, body })).body.data).toEqual(body)
    const cleared = await t.request('PUT', url('branding'), { token: owner.token, body: { logo_url: '', primary_color: '', support_email: '' } })
    expect(cleared.body.data).toEqual({ ...body, logo_url: '', primary_color: '', support_email: '' })
  })

  it('removes repeated roadmap statuses', async () => {
    const res = await t.request('PUT', url('roadmap-settings'), { token: owner.token, body: { statuses: ['open', 'open', 'closed'] } })
    expect(res.status).toBe(200)
    expect(res.body.data.statuses).toEqual(['open', 'closed'])
  })

  it.each([
    ['tracker-settings', { accent_color: 'red' }, 'accent_color'],
    ['tracker-settings', { accent_color: '#12345' }, 'accent_color'],
    ['tracker-settings', { logo_url: 'javascript:alert(1)' }, 'logo_url'],
    ['tracker-settings', { logo_url: 'ftp://example.com/logo.png' }, 'logo_url'],
    ['tracker-settings', { enabled: 'yes' }, 'enabled'],
    ['tracker-settings', { custom_css: 'body{}</style><script>alert(1)</script>' }, 'custom_css'],
    ['tracker-settings', { custom_css: 'a{} <SCRIPT src=x>' }, 'custom_css'],
    ['tracker-settings', { custom_css: `/*${'x'.repeat(20 * 1024)}*/` }, 'custom_css'],
    ['tracker-settings', { page_title: 'x'.repeat(201) }, 'page_title'],
    ['roadmap-settings', { statuses: ['open', 'someday'] }, 'statuses'],
    ['roadmap-settings', { statuses: [] }, 'statuses'],
    ['roadmap-settings', { show_upvotes: 1 }, 'show_upvotes'],
    ['roadmap-settings', { label_id: 'no-such-label' }, 'label_id'],
    ['roadmap-settings', { source: 'everything' }, 'source'],
    ['tracker-settings', { publish: 'everything' }, 'publish'],
    ['tracker-settings', { include_auto_filed: 'yes' }, 'include_auto_filed'],
    ['branding', { support_email: 'not-an-email' }, 'support_email'],
    ['branding', { primary_color: '#GGGGGG' }, 'primary_color'],
  ])('%s refuses a bad value (case %#) with 400 naming the field and stores nothing', async (path, body, field) => {
    const res = await t.request('PUT', url(path), { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toContain(field)
    expect((await t.request('GET', url(path), { token: owner.token })).body.data).toEqual(defaults[path as keyof typeof defaults])
  })

  it.each(Object.keys(defaults))('%s answers 400 when the body has no known field', async (path) => {
    for (const body of [{}, { nonsense: true }]) {
      const res = await t.request('PUT', url(path), { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ ok: false, error: 'no valid fields to update' })
    }
  })
})

const defaultWidget = {
  theme: { primary_color: '#2E5BFF', background_color: '#FFFFFF', text_color: '#1A1A1A', position: 'bottom-right', mode: 'light' },
  button_text: 'Report a bug',
  background_image_url: '',
}

// The smallest PNG header the upload sniffer recognises, padded past its 12-byte minimum.
const png = (size = 64) => {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}
const upload = (data: Uint8Array<ArrayBuffer>, name = 'bg.png', type = 'image/png') => {
  const form = new FormData()
  form.append('file', new File([data], name, { type }))
  return form
}

describe('widget settings', () => {
  it('gives free projects the default theme and refuses changes with 403 naming the feature', async () => {
    expect((await t.request('GET', url('widget-settings'), { token: owner.token })).body).toEqual({ ok: true, data: defaultWidget })
    const res = await t.request('PUT', url('widget-settings'), { token: owner.token, body: { theme: { mode: 'dark' } } })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/this account does not have widget themes/)
    const bg = await t.request('POST', url('widget-settings/background'), { token: owner.token, body: upload(png()) })
    expect(bg.status).toBe(403)
  })

  it('merges theme fields on tier 2, and falls back to the default theme after a downgrade', async () => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const path = `/api/projects/${p.slug}/widget-settings`
    await t.request('PUT', path, { token: pro.token, body: { theme: { mode: 'dark', primary_color: '#112233' } } })
    const res = await t.request('PUT', path, { token: pro.token, body: { theme: { position: 'top-left' }, button_text: 'Feedback' } })
    const custom = { ...defaultWidget, theme: { ...defaultWidget.theme, mode: 'dark', primary_color: '#112233', position: 'top-left' }, button_text: 'Feedback' }
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual(custom)
    expect((await t.request('GET', path, { token: pro.token })).body.data).toEqual(custom)
    expect(await widgetThemeFor(t.deps.db, p.id, 'pro')).toEqual({ ...custom.theme, button_text: 'Feedback', background_image_url: '' })
    await t.deps.db.write((q) => q.update(accounts).set({ plan: 'free' }).where(eq(accounts.id, pro.account.id)))
    expect((await t.request('GET', path, { token: pro.token })).body.data).toEqual(defaultWidget)
    expect(await widgetThemeFor(t.deps.db, p.id, 'free')).toEqual({ ...defaultWidget.theme, button_text: 'Report a bug', background_image_url: '' })
  })

  it("colors the widget with the project's brand color unless the widget settings choose one (issue 25)", async () => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const settings = async () => (await t.request('GET', '/api/bugs/settings', { apiKey: p.apiKey })).body.data.widget_theme.primary_color
    expect(await settings()).toBe('#2E5BFF')
    await t.request('PUT', `/api/projects/${p.slug}/branding`, { token: pro.token, body: { primary_color: '#aa3300' } })
    expect(await settings()).toBe('#aa3300')
    // Other theme fields saved do not count as choosing a color.
    await t.request('PUT', `/api/projects/${p.slug}/widget-settings`, { token: pro.token, body: { theme: { mode: 'dark' } } })
    expect(await settings()).toBe('#aa3300')
    await t.request('PUT', `/api/projects/${p.slug}/widget-settings`, { token: pro.token, body: { theme: { primary_color: '#112233' } } })
    expect(await settings()).toBe('#112233')
    // On the free plan the widget's own theme does not apply; the brand color still does.
    await t.deps.db.write((q) => q.update(accounts).set({ plan: 'free' }).where(eq(accounts.id, pro.account.id)))
    expect((await widgetThemeFor(t.deps.db, p.id, 'free')).primary_color).toBe('#aa3300')
  })

  it.each([
    [{ theme: { position: 'middle' } }, 'theme.position'],
    [{ theme: { mode: 'sepia' } }, 'theme.mode'],
    [{ theme: { text_color: '' } }, 'theme.text_color'],
    [{ background_image_url: 'data:image/png;base64,AAAA' }, 'background_image_url'],
    [{ button_text: 'x'.repeat(51) }, 'button_text'],
  ])('refuses a bad widget value (case %#) with 400 naming the field', async (body, field) => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const res = await t.request('PUT', `/api/projects/${p.slug}/widget-settings`, { token: pro.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(field)
  })

  it('stores an uploaded background image, points the widget at it and charges the upload quota', async () => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const res = await t.request('POST', `/api/projects/${p.slug}/widget-settings/background`, { token: pro.token, body: upload(png(2048)) })
    expect(res.status).toBe(201)
    expect(res.body.data.background_image_url).toMatch(/^http:\/\/glitchbox\.test\/api\/files\/[A-Za-z0-9_-]{32,}\.png$/)
    const widget = await t.request('GET', `/api/projects/${p.slug}/widget-settings`, { token: pro.token })
    expect(widget.body.data.background_image_url).toBe(res.body.data.background_image_url)
    const key = res.body.data.background_image_url.split('/').pop()
    const file = await t.deps.files.open(t.deps.db, key)
    expect(file?.meta).toMatchObject({ mimeType: 'image/png', size: 2048 })
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, pro.account.id)).limit(1)))[0]!.uploadBytesUsed).toBe(2048)
  })

  it.each([
    ['a text file', () => upload(new TextEncoder().encode('hello, not an image'), 'bg.txt', 'text/plain')],
    ['an image over 5 MB', () => upload(png(5 * 1024 * 1024 + 1))],
    ['no file', () => new FormData()],
  ])('refuses %s with 400 and keeps the widget unchanged', async (_, body) => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const res = await t.request('POST', `/api/projects/${p.slug}/widget-settings/background`, { token: pro.token, body: body() })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect((await t.request('GET', `/api/projects/${p.slug}/widget-settings`, { token: pro.token })).body.data.background_image_url).toBe('')
  })

  it('needs project.settings to change the widget', async () => {
    const pro = await createUser(t, { plan: 'pro' })
    const p = await createProject(t, pro)
    const reader = await addMember(t, pro, { 'project.settings': false })
    expect((await t.request('GET', `/api/projects/${p.slug}/widget-settings`, { token: reader.token })).status).toBe(200)
    expect((await t.request('PUT', `/api/projects/${p.slug}/widget-settings`, { token: reader.token, body: { button_text: 'Hi' } })).status).toBe(403)
  })
})
