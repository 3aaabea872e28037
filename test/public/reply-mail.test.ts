// Issue 25: a public reply by the team mails the player who filed the report (when they left an
// address and did not unsubscribe): one mail per reply, a link to the public report, and an
// unsubscribe link that works without an account. Through the job table and the mailer's outbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { jobs } from '../../src/jobs/jobs.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { outbox } from '../notifications/helpers'
import { putSettings, setReport } from './public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { name: 'Olivia Owner' })
  project = await createProject(t, owner, { name: 'Star Forge' })
})
afterEach(() => t.close())

const PLAYER = 'pat@player.example'
const reply = (n: number, body: string, isInternal = false) => t.request('POST', `/api/projects/${project.slug}/bugs/${n}/comments`, { token: owner.token, body: { body, is_internal: isInternal } })
const mailsTo = async (to: string) => (await outbox(t)).filter((m) => m.to === to)
const page = (path: string, o: { method?: string; form?: Record<string, string> } = {}) =>
  t.request(o.method ?? 'GET', path, {
    headers: { accept: 'text/html', ...(o.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: o.form ? new URLSearchParams(o.form).toString() : undefined,
  })

describe('reply mail', () => {
  it('sends one mail per public reply with the reply, a link to the public report and a signed unsubscribe link', async () => {
    const r = await createReportIn(t, project, { title: 'Door will not open', reporterEmail: PLAYER })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    expect((await reply(r.reportNumber, 'Thanks! Fixed in 1.2, out Friday.')).status).toBe(201)
    // Enqueued with the comment, sent by the job runner.
    expect(await mailsTo(PLAYER)).toEqual([])
    expect((await t.deps.db.read((q) => q.select().from(jobs))).filter((j) => j.kind === 'public.reply_mail')).toHaveLength(1)
    await t.runner.drain()
    const [mail, ...more] = await mailsTo(PLAYER)
    expect(more).toEqual([])
    expect(mail!.subject).toBe(`Re: #${r.reportNumber} Door will not open · Star Forge`)
    expect(mail!.text).toContain(`The Star Forge team replied to your report #${r.reportNumber} “Door will not open”:`)
    expect(mail!.text).toContain('Thanks! Fixed in 1.2, out Friday.')
    // The public reply made the report triaged, so the tracker shows it and the mail links to it.
    expect(mail!.text).toContain(`See the report and the whole conversation: http://glitchbox.test/tracker/${project.slug}/${r.reportNumber}`)
    expect(mail!.html).toContain(`href="http://glitchbox.test/tracker/${project.slug}/${r.reportNumber}"`)
    const unsubscribe = /Unsubscribe: (http:\/\/glitchbox\.test\/replies\/unsubscribe\?token=\S+)/.exec(mail!.text)![1]!
    // A second reply is a second mail; running the jobs again sends nothing more.
    await reply(r.reportNumber, 'It is out now.')
    await t.runner.drain()
    await t.runner.drain()
    expect((await mailsTo(PLAYER)).map((m) => m.text.includes('It is out now.'))).toEqual([false, true])

    // The link asks first (a mail scanner opening it unsubscribes nobody), then the form post does it, without an account.
    const path = unsubscribe.replace('http://glitchbox.test', '')
    const ask = await page(path)
    expect(ask.status).toBe(200)
    expect(ask.body).toContain('<form class="card" method="post" action="/replies/unsubscribe">')
    await reply(r.reportNumber, 'Still subscribed')
    await t.runner.drain()
    expect(await mailsTo(PLAYER)).toHaveLength(3)
    const token = decodeURIComponent(new URL(unsubscribe).searchParams.get('token')!)
    const done = await page('/replies/unsubscribe', { method: 'POST', form: { token } })
    expect(done.status).toBe(200)
    expect(done.body).toContain('You will get no more reply emails from Star Forge.')
    // Again is harmless.
    expect((await page('/replies/unsubscribe', { method: 'POST', form: { token } })).status).toBe(200)
    await reply(r.reportNumber, 'After unsubscribing')
    await t.runner.drain()
    expect(await mailsTo(PLAYER)).toHaveLength(3)
    // The opt-out is per address and project, whatever the case of the address on another report.
    const other = await createReportIn(t, project, { title: 'Another', reporterEmail: 'PAT@player.example' })
    await reply(other.reportNumber, 'Reply on another report')
    await t.runner.drain()
    expect((await outbox(t)).filter((m) => m.to.toLowerCase() === PLAYER)).toHaveLength(3)
  })

  it('sends nothing for internal notes, reports without an address, or an SDK crash with no reporter', async () => {
    const noted = await createReportIn(t, project, { reporterEmail: PLAYER })
    const anonymous = await createReportIn(t, project)
    expect((await reply(noted.reportNumber, 'INTERNAL: the loader again', true)).status).toBe(201)
    expect((await reply(anonymous.reportNumber, 'Thanks')).status).toBe(201)
    await t.runner.drain()
    expect((await outbox(t)).filter((m) => m.subject.startsWith('Re: '))).toEqual([])
  })

  it('leaves the link out while the public tracker does not show the report', async () => {
    const r = await createReportIn(t, project, { title: 'Hidden fix', reporterEmail: PLAYER })
    await setReport(t, r, { published: false })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    await reply(r.reportNumber, 'We fixed it.')
    await t.runner.drain()
    const [mail] = await mailsTo(PLAYER)
    expect(mail!.text).toContain('We fixed it.')
    expect(mail!.text).not.toContain('/tracker/')
    expect(mail!.text).toContain('/replies/unsubscribe?token=')
  })

  it('refuses a forged or mangled unsubscribe token with 400 and records nothing', async () => {
    const r = await createReportIn(t, project, { reporterEmail: PLAYER })
    await reply(r.reportNumber, 'first')
    await t.runner.drain()
    const token = decodeURIComponent(/token=(\S+)/.exec((await mailsTo(PLAYER))[0]!.text)![1]!)
    const [claim] = token.split('.')
    const forged = `${Buffer.from(Buffer.from(claim!, 'base64url').toString().replace(PLAYER, 'someone@else.example')).toString('base64url')}.${token.split('.')[1]}`
    for (const bad of [forged, 'garbage', '', `${claim}.`]) {
      const res = await page('/replies/unsubscribe', { method: 'POST', form: { token: bad } })
      expect(res.status).toBe(400)
      expect(res.body).toContain('This unsubscribe link is not valid.')
    }
    await reply(r.reportNumber, 'second')
    await t.runner.drain()
    expect(await mailsTo(PLAYER)).toHaveLength(2)
  })
})
