// Issue 33: players file reports from Discord with /report. Every interaction is signed with a key
// pair made here, as Discord signs them; a fake Discord on 127.0.0.1 records the command
// registration, the edits of deferred answers, the channel messages and the screenshot downloads.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectJobs } from '../../src/jobs/registry'
import { DAY, MINUTE } from '../../src/lib/clock'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { sqlRows } from '../helpers/sql-rows'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings } from '../public/public-fixtures'
import { discordSigner, type FakeDiscord, startFakeDiscord } from './fake-discord'

const START = '2026-06-01T12:00:00Z'
const APP_ID = '1280000000000000000'
const GUILD = '1100000000000000000'
const CHANNEL = '1110000000000000000'
const BOT_TOKEN = 'MTI4MDAwMDAwMDAwMDAwMDAwMA.GbXyZa.bot-token-for-tests_0123456789'
const PLAYER: { id: string; username: string; global_name: string | null } = { id: '80351110224678912', username: 'pixelknight', global_name: 'Pixel Knight' }
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

let t: TestApp
let fake: FakeDiscord
let signer: Awaited<ReturnType<typeof discordSigner>>
let owner: TestUser
let project: TestProject
let interactionSeq = 0

beforeEach(async () => {
  fake = startFakeDiscord()
  signer = await discordSigner()
  // Every test request comes from its own address; the SDK budget is made small to be reached per Discord user.
  t = createTestApp({ start: START, env: { GLITCHBOX_PROVIDER_URL_DISCORD: fake.apiUrl, GLITCHBOX_PROVIDER_URL_DISCORD_CDN: fake.cdnUrl, GLITCHBOX_RATE_LIMIT_PUBLIC: '8' } })
  owner = await createUser(t)
  project = await createProject(t, owner, { name: 'Space Game' })
})
afterEach(async () => {
  fake.stop()
  await t.close()
})

const settingsPath = () => `/api/projects/${project.slug}/discord`
const connect = (over: Record<string, unknown> = {}) =>
  t.request('PUT', settingsPath(), { token: owner.token, body: { application_id: APP_ID, public_key: signer.publicKeyHex, bot_token: BOT_TOKEN, guild_id: GUILD, ...over } })

/** Sends `body` to the interactions endpoint, signed now by the test's key unless `headers` says otherwise. */
async function interact(body: unknown, o: { headers?: Record<string, string>; at?: Date; appId?: string; raw?: string } = {}) {
  const text = o.raw ?? JSON.stringify(body)
  const headers = { ...(await signer.headers(text, o.at ?? t.clock.now())), ...o.headers }
  return t.request('POST', `/api/discord/interactions/${o.appId ?? APP_ID}`, { body: text, headers })
}

const base = (type: number, user = PLAYER) => ({ id: String(1290000000000000000n + BigInt(++interactionSeq)), application_id: APP_ID, type, token: `tok_${interactionSeq}`, guild_id: GUILD, channel_id: CHANNEL, member: { user }, locale: 'en-US', version: 1 })

function form(o: { title?: string; description?: string; files?: { name: string; url: string; size?: number; type?: string }[]; user?: typeof PLAYER; carry?: string } = {}) {
  const files = o.files ?? []
  const ids = files.map((_, i) => String(1300000000000000000n + BigInt(i)))
  return {
    ...base(5, o.user),
    data: {
      custom_id: o.carry ? `glitchbox_report:${o.carry}` : 'glitchbox_report',
      components: [
        { type: 18, component: { type: 4, custom_id: 'title', value: o.title ?? 'Boss freezes after the cutscene' } },
        { type: 18, component: { type: 4, custom_id: 'description', value: o.description ?? 'The screen stays black and music loops.' } },
        { type: 18, component: { type: 4, custom_id: 'steps', value: 'Beat the boss' } },
        { type: 18, component: { type: 19, custom_id: 'screenshots', values: ids } },
      ],
      resolved: { attachments: Object.fromEntries(files.map((f, i) => [ids[i], { id: ids[i], filename: f.name, size: f.size ?? PNG.length, url: f.url, content_type: f.type ?? 'image/png' }])) },
    },
  }
}

const edits = () => fake.calls.filter((c) => c.method === 'PATCH')
const reportsRows = () => sqlRows<{ report_number: number; title: string; player_id: string | null }>(t, `SELECT r.report_number, r.title, o.player_id FROM reports r JOIN report_occurrences o ON o.report_id = r.id ORDER BY r.report_number`)

describe('the interactions endpoint checks the signature first', () => {
  beforeEach(async () => {
    expect((await connect()).status).toBe(200)
  })

  it('answers PING with {"type":1}, unwrapped', async () => {
    const res = await interact({ type: 1, id: '1', application_id: APP_ID, token: 'x' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ type: 1 })
  })

  it.each([
    ['no signature', { 'x-signature-ed25519': '', 'x-signature-timestamp': '' }, {}],
    ['a malformed signature', { 'x-signature-ed25519': 'zz' }, {}],
    ['a signature by another key', 'other-key', {}],
    ['a tampered body', 'tampered', {}],
    ['a timestamp over 5 minutes old', {}, { at: new Date(Date.parse(START) - 6 * MINUTE) }],
    ['an application id nobody configured', {}, { appId: '1999999999999999999' }],
  ])('%s → 401, and nothing is filed', async (_name, headers, o) => {
    const body = form()
    let extra: Record<string, string> = {}
    if (headers === 'other-key') extra = await (await discordSigner()).headers(JSON.stringify(body), t.clock.now())
    else if (headers === 'tampered') extra = await signer.headers(JSON.stringify({ ...body, token: 'changed' }), t.clock.now())
    else extra = headers as Record<string, string>
    const res = await interact(body, { headers: extra, ...(o as { at?: Date; appId?: string }) })
    expect(res.status).toBe(401)
    await t.runner.drain()
    expect(await sqlRows(t, 'SELECT interaction_id FROM discord_submissions')).toEqual([])
    expect(await reportsRows()).toEqual([])
  })
})

describe('settings', () => {
  it('never shows the bot token back, and keeps it when a change leaves it out', async () => {
    const res = await connect({ reply_channel_id: CHANNEL })
    expect(res.status).toBe(200)
    expect(JSON.stringify(res.body)).not.toContain(BOT_TOKEN)
    expect(res.body.data).toMatchObject({ application_id: APP_ID, bot_token_hint: `…${BOT_TOKEN.slice(-4)}`, reports_per_hour: 10, replies_enabled: true, interactions_endpoint_url: `http://glitchbox.test/api/discord/interactions/${APP_ID}` })
    const [row] = await sqlRows<{ bot_token_enc: string }>(t, 'SELECT bot_token_enc FROM discord_apps')
    expect(row!.bot_token_enc).not.toContain(BOT_TOKEN)
    const changed = await t.request('PUT', settingsPath(), { token: owner.token, body: { application_id: APP_ID, public_key: signer.publicKeyHex, guild_id: GUILD, reports_per_hour: 3 } })
    expect(changed.body.data).toMatchObject({ reports_per_hour: 3, bot_token_hint: `…${BOT_TOKEN.slice(-4)}` })
  })

  it.each([
    [{ public_key: 'nothex' }, 'public_key'],
    [{ application_id: 'abc' }, 'application_id'],
    [{ bot_token: undefined }, 'bot_token is required'],
  ])('%j → 400 naming the field, nothing stored', async (over, message) => {
    const res = await connect(over)
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect((await t.request('GET', settingsPath(), { token: owner.token })).status).toBe(404)
  })

  it('"Register /report" installs the guild command and says what Discord answered', async () => {
    await connect()
    const res = await t.request('POST', `${settingsPath()}/register`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data.message).toMatch(/installed \/report/)
    const [put] = fake.calls
    expect(put).toMatchObject({ method: 'PUT', path: `/applications/${APP_ID}/guilds/${GUILD}/commands`, authorization: `Bot ${BOT_TOKEN}` })
    expect((put!.body as { name: string }[]).map((c) => c.name)).toEqual(['report'])
    expect((await t.request('GET', settingsPath(), { token: owner.token })).body.data.command_registered_at).toBe(START.replace('Z', '.000Z'))

    fake.failNext(401, { message: '401: Unauthorized', code: 0 })
    const refused = await t.request('POST', `${settingsPath()}/register`, { token: owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toMatch(/Discord answered 401: the bot token was refused/)
  })

  it('one application belongs to one project', async () => {
    await connect()
    const other = await createProject(t, owner, { name: 'Other Game' })
    const res = await t.request('PUT', `/api/projects/${other.slug}/discord`, { token: owner.token, body: { application_id: APP_ID, public_key: signer.publicKeyHex, bot_token: BOT_TOKEN, guild_id: GUILD } })
    expect(res.status).toBe(409)
  })
})

describe('/report round trip', () => {
  beforeEach(async () => {
    await connect()
  })

  it('/report answers the modal', async () => {
    const res = await interact({ ...base(2), data: { id: '9', name: 'report', type: 1 } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ type: 9, data: { custom_id: 'glitchbox_report' } })
  })

  it('the form answers a deferred ephemeral message, files through ingest with the screenshot, then edits in "Thanks — report #N"', async () => {
    fake.files.set('/attachments/1/2/freeze.png', { bytes: PNG, type: 'image/png' })
    const sent = form({ files: [{ name: 'freeze.png', url: `${fake.cdnUrl}/attachments/1/2/freeze.png` }] })
    const res = await interact(sent)
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    expect(await reportsRows()).toEqual([])
    await t.runner.drain()
    expect(await reportsRows()).toEqual([{ report_number: 1, title: 'Boss freezes after the cutscene', player_id: `discord:${PLAYER.id}` }])
    const [occ] = await sqlRows<{ client: string; reporter_name: string; screenshot_key: string | null; metadata: string }>(t, 'SELECT client, reporter_name, screenshot_key, metadata FROM report_occurrences')
    expect(occ).toMatchObject({ client: 'discord', reporter_name: 'Pixel Knight' })
    expect(occ!.screenshot_key).toBeTruthy()
    expect(JSON.parse(occ!.metadata)).toMatchObject({ discord: { guild_id: GUILD, channel_id: CHANNEL, user_id: PLAYER.id } })
    expect(edits()).toEqual([expect.objectContaining({ path: `/webhooks/${APP_ID}/${sent.token}/messages/@original`, body: expect.objectContaining({ content: 'Thanks — report #1 was sent to the developers.' }) })])
  })

  it("files with source discord (CONTRACT: the one ingest path, source `discord`): the list filters by it and the player's tone is scored", async () => {
    await interact(form())
    await t.runner.drain()
    const list = await t.request('GET', `/api/projects/${project.slug}/bugs?source=discord`, { token: owner.token })
    expect(list.status).toBe(200)
    expect(list.body.data.bugs.map((b: { report_number: number; source: string }) => [b.report_number, b.source])).toEqual([[1, 'discord']])
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs?source=user`, { token: owner.token })).body.data.bugs).toEqual([])
    const [row] = await sqlRows<{ source: string; sentiment_level: string | null }>(t, 'SELECT source, sentiment_level FROM reports')
    expect(row).toEqual({ source: 'discord', sentiment_level: expect.any(String) })
  })

  it('links the report on the public tracker when it is shown there', async () => {
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', allow_upvotes: false })
    await interact(form())
    await t.runner.drain()
    expect((edits()[0]!.body as { content: string }).content).toBe(`Thanks — report #1 was sent to the developers. Follow it here: <http://glitchbox.test/tracker/${project.slug}/1>`)
  })

  it('a screenshot from anywhere but Discord’s attachment host is not fetched; the report is still filed', async () => {
    const elsewhere = 'http://169.254.169.254/latest/meta-data/shot.png'
    await interact(form({ files: [{ name: 'shot.png', url: elsewhere }] }))
    await t.runner.drain()
    expect(await reportsRows()).toHaveLength(1)
    expect((await sqlRows<{ screenshot_key: string | null }>(t, 'SELECT screenshot_key FROM report_occurrences'))[0]!.screenshot_key).toBeNull()
  })

  it('the screenshot given as the command option comes back with the form', async () => {
    fake.files.set('/attachments/9/9/opt.png', { bytes: PNG, type: 'image/png' })
    const cmd = { ...base(2), data: { id: '9', name: 'report', type: 1, options: [{ name: 'screenshot', type: 11, value: '77' }], resolved: { attachments: { '77': { id: '77', filename: 'opt.png', size: PNG.length, url: `${fake.cdnUrl}/attachments/9/9/opt.png`, content_type: 'image/png' } } } } }
    const modal = await interact(cmd)
    expect(modal.body.data.custom_id).toBe(`glitchbox_report:${cmd.id}`)
    await interact(form({ carry: cmd.id }))
    await t.runner.drain()
    expect((await sqlRows<{ screenshot_key: string | null }>(t, 'SELECT screenshot_key FROM report_occurrences'))[0]!.screenshot_key).toBeTruthy()
  })

  it('a retried form (the same interaction twice) files one report', async () => {
    const sent = form()
    const text = JSON.stringify(sent)
    await interact(sent, { raw: text })
    await interact(sent, { raw: text })
    await t.runner.drain()
    expect(await reportsRows()).toHaveLength(1)
  })
})

describe('similar reports are offered as +1 buttons', () => {
  beforeEach(async () => {
    await connect()
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', allow_upvotes: true })
    await createReportIn(t, project, { title: 'Boss fight freezes after the cutscene' })
  })

  it('a +1 button votes on that report instead of filing', async () => {
    const sent = form()
    await interact(sent)
    await t.runner.drain()
    const offer = edits()[0]!.body as { content: string; components: { components: { custom_id: string; label: string }[] }[] }
    expect(offer.content).toContain('#1 Boss fight freezes after the cutscene')
    const [plusOne, fileMine] = offer.components[0]!.components
    expect(plusOne!.label).toMatch(/^This is my problem: \+1 #1/)
    expect(fileMine!.label).toBe('None of these: send my report')
    const click = await interact({ ...base(3), data: { custom_id: plusOne!.custom_id, component_type: 2 } })
    expect(click.body).toMatchObject({ type: 7, data: { content: expect.stringContaining('your +1 was added to report #1') } })
    expect(await sqlRows(t, 'SELECT report_number, upvotes FROM reports')).toEqual([{ report_number: 1, upvotes: 1 }])
    await t.runner.drain()
    expect(await reportsRows()).toHaveLength(1)
  })

  it('"send my report" files it after all, editing the suggestion into the thanks', async () => {
    const sent = form()
    await interact(sent)
    await t.runner.drain()
    const offer = edits()[0]!.body as { components: { components: { custom_id: string }[] }[] }
    const fileMine = offer.components[0]!.components.at(-1)!
    const click = await interact({ ...base(3), data: { custom_id: fileMine.custom_id, component_type: 2 } })
    expect(click.body).toEqual({ type: 6 })
    await t.runner.drain()
    expect((await reportsRows()).map((r) => r.report_number)).toEqual([1, 2])
    expect(edits().at(-1)).toMatchObject({ path: `/webhooks/${APP_ID}/${sent.token}/messages/@original`, body: { content: expect.stringContaining('report #2') } })
  })

  it('an edit Discord refused is retried: the player is not left "thinking"', async () => {
    fake.failNext(500)
    await interact(form())
    await t.runner.drain()
    expect(edits()).toHaveLength(1)
    t.clock.advance(2 * MINUTE)
    await t.runner.drain()
    expect(edits()).toHaveLength(2)
    expect((edits()[1]!.body as { content: string }).content).toContain('#1 Boss fight freezes after the cutscene')
    expect(await reportsRows()).toHaveLength(1)
  })

  it('forms that never became a report are dropped a day later; the filed ones stay for the replies', async () => {
    await interact(form())
    await t.runner.drain()
    const offer = edits()[0]!.body as { components: { components: { custom_id: string }[] }[] }
    await interact({ ...base(3), data: { custom_id: offer.components[0]!.components[0]!.custom_id, component_type: 2 } })
    await interact(form({ title: 'Inventory duplicates items' }))
    await t.runner.drain()
    const statuses = async () => (await sqlRows<{ status: string }>(t, 'SELECT status FROM discord_submissions ORDER BY status')).map((r) => r.status)
    expect(await statuses()).toEqual(['filed', 'voted'])
    const prune = collectJobs(t.deps).schedules.find((s) => s.name === 'discord.prune-forms')!
    await prune.run()
    expect(await statuses()).toEqual(['filed', 'voted'])
    t.clock.advance(DAY + MINUTE)
    await prune.run()
    expect(await statuses()).toEqual(['filed'])
  })

  it('another player cannot press someone else’s buttons', async () => {
    await interact(form())
    await t.runner.drain()
    const offer = edits()[0]!.body as { components: { components: { custom_id: string }[] }[] }
    const click = await interact({ ...base(3, { id: '1', username: 'other', global_name: null }), data: { custom_id: offer.components[0]!.components[0]!.custom_id, component_type: 2 } })
    expect(click.body).toMatchObject({ type: 4, data: { flags: 64 } })
    expect(await sqlRows(t, 'SELECT upvotes FROM reports')).toEqual([{ upvotes: 0 }])
  })
})

describe('abuse limits', () => {
  it('a player files at most N reports an hour (the setting); the next is told so and nothing is queued', async () => {
    await connect({ reports_per_hour: 2 })
    for (let i = 0; i < 2; i++) expect((await interact(form({ title: `Crash number ${i}` }))).body).toEqual({ type: 5, data: { flags: 64 } })
    const third = await interact(form({ title: 'Crash number 3' }))
    expect(third.body).toMatchObject({ type: 4, data: { flags: 64, content: expect.stringContaining('2 reports in the last hour') } })
    await t.runner.drain()
    expect(await reportsRows()).toHaveLength(2)
    // Another player is not held back by the first one's count.
    expect((await interact(form({ title: 'Another crash', user: { id: '2', username: 'b', global_name: null } }))).body.type).toBe(5)
    t.clock.advance(61 * MINUTE)
    expect((await interact(form({ title: 'Crash number 4' }))).body.type).toBe(5)
  })

  it('the SDK budget (8 a minute here) counts per Discord user, not per address: every interaction comes from Discord’s', async () => {
    await connect({ reports_per_hour: 100 })
    const answers = []
    for (let i = 0; i < 9; i++) answers.push((await interact(form({ title: `Crash ${i}` }))).body)
    expect(answers.map((a) => a.type)).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 4])
    expect(answers[8].data.content).toContain('too fast')
    expect((await interact(form({ user: { id: '3', username: 'c', global_name: null } }))).body.type).toBe(5)
    t.clock.advance(MINUTE)
    expect((await interact(form({ title: 'Crash 9' }))).body.type).toBe(5)
  })

  it('a blocked user id is refused', async () => {
    await connect({ blocked_user_ids: [PLAYER.id] })
    const res = await interact(form())
    expect(res.body).toMatchObject({ type: 4, data: { flags: 64, content: expect.stringContaining('cannot send reports') } })
    expect((await interact({ ...base(2), data: { id: '9', name: 'report', type: 1 } })).body.type).toBe(4)
    await t.runner.drain()
    expect(await reportsRows()).toEqual([])
  })
})

describe('status replies', () => {
  it('posts one message mentioning the player in the configured channel when the report is resolved', async () => {
    await connect({ reply_channel_id: '1120000000000000000' })
    await interact(form())
    await t.runner.drain()
    const res = await t.request('PATCH', `/api/projects/${project.slug}/bugs/1`, { token: owner.token, body: { status: 'resolved' } })
    expect(res.status).toBe(200)
    await t.runner.drain()
    const posts = fake.calls.filter((c) => c.method === 'POST')
    expect(posts).toEqual([
      expect.objectContaining({
        path: '/channels/1120000000000000000/messages',
        authorization: `Bot ${BOT_TOKEN}`,
        body: { content: `<@${PLAYER.id}> your report #1 “Boss freezes after the cutscene” is fixed.`, allowed_mentions: { parse: [], users: [PLAYER.id] } },
      }),
    ])
  })

  it('retries a refused reply, and stays quiet when replies are off', async () => {
    await connect()
    await interact(form())
    await t.runner.drain()
    fake.failNext(503)
    await t.request('PATCH', `/api/projects/${project.slug}/bugs/1`, { token: owner.token, body: { status: 'in_progress' } })
    await t.runner.drain()
    t.clock.advance(2 * MINUTE)
    await t.runner.drain()
    const posts = fake.calls.filter((c) => c.method === 'POST')
    expect(posts.map((p) => p.path)).toEqual([`/channels/${CHANNEL}/messages`, `/channels/${CHANNEL}/messages`])
    await connect({ replies_enabled: false })
    await t.request('PATCH', `/api/projects/${project.slug}/bugs/1`, { token: owner.token, body: { status: 'resolved' } })
    await t.runner.drain()
    expect(fake.calls.filter((c) => c.method === 'POST')).toHaveLength(2)
  })
})
