import { describe, expect, it } from 'vitest'
import { connect, fileBug, integrationsTestbed, json } from './helpers'

const bed = integrationsTestbed()
const TOKEN = 'sntrys_eyJpYXQiOjE3MDAwMDAwMDAuMH0_secret'

const projects = [
  { id: '4505281256090153', slug: 'space-game', name: 'Space Game', organization: { slug: 'acme', name: 'Acme Studio' } },
  { id: '4505281256090154', slug: 'launcher', name: 'Launcher', organization: { slug: 'acme', name: 'Acme Studio' } },
]

/** Sentry's answers: projects, and issues searched by error type. */
function sentryFake(c: { path: string; headers: Headers }) {
  if (c.headers.get('authorization') !== `Bearer ${TOKEN}`) return json(401, { detail: 'Invalid token' })
  if (c.path === '/api/0/projects/') return json(200, projects)
  if (c.path.startsWith('/api/0/organizations/acme/issues/')) {
    const q = new URL(`http://x${c.path}`).searchParams.get('query') ?? ''
    if (q.includes('NullReferenceException'))
      return json(200, [{ id: '42', shortId: 'SPACE-GAME-1A', title: 'NullReferenceException: Object reference not set', permalink: 'https://acme.sentry.io/issues/42/', metadata: { type: 'NullReferenceException' } }])
    return json(200, [])
  }
  return json(404, { detail: 'The requested resource does not exist' })
}

describe('sentry', () => {
  it('lists projects as <org>:<id> targets from a pasted token or a saved connection; 502 with Sentry\'s answer for a bad token', async () => {
    bed.fake.answer = sentryFake
    const res = await bed.t.request('POST', `${bed.base}/sentry/targets`, { token: bed.owner.token, body: { secret: TOKEN, config: { region: 'de' } } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: 'acme:4505281256090153', name: 'Space Game', group: 'Acme Studio' },
      { id: 'acme:4505281256090154', name: 'Launcher', group: 'Acme Studio' },
    ])
    expect(bed.fake.calls[0]!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    const id = await connect(bed, 'sentry', { secret: TOKEN, config: { project: 'acme:4505281256090153' } })
    const saved = await bed.t.request('POST', `${bed.base}/sentry/targets`, { token: bed.owner.token, body: { id } })
    expect(saved.body.data).toHaveLength(2)

    const bad = await bed.t.request('POST', `${bed.base}/sentry/targets`, { token: bed.owner.token, body: { secret: 'sntrys_wrong_token_0123456789' } })
    expect(bad.status).toBe(502)
    expect(bad.body).toEqual({ ok: false, error: 'Sentry answered 401: Invalid token' })
    const none = await bed.t.request('POST', `${bed.base}/sentry/targets`, { token: bed.owner.token, body: {} })
    expect(none.status).toBe(400)
  })

  it('links the Sentry issue of a new report\'s error type on the report', async () => {
    bed.fake.answer = sentryFake
    const id = await connect(bed, 'sentry', { secret: TOKEN, config: { project: 'acme:4505281256090153', region: 'us' } })
    expect((await bed.t.request('POST', `${bed.base}/sentry/${id}/test`, { token: bed.owner.token })).body.data.message).toBe('Sentry accepted the token and the project')
    bed.fake.calls.length = 0
    await fileBug(bed, { title: '[Error] NullReferenceException: Object reference not set', description: 'at Player.Update()' })
    await fileBug(bed, { title: 'ArgumentException: bad level id' })
    await fileBug(bed, { title: 'Sky is purple' })
    await bed.t.runner.drain()

    expect(bed.fake.calls).toHaveLength(2)
    const q = new URL(`http://x${bed.fake.calls.find((c) => c.path.includes('NullReference'))!.path}`).searchParams
    expect(q.get('project')).toBe('4505281256090153')
    expect(q.get('query')).toBe('error.type:"NullReferenceException"')

    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.status).toBe(200)
    expect(issues.body.data.links).toMatchObject([{ integration_id: id, provider: 'sentry', provider_name: 'Sentry', external_id: 'SPACE-GAME-1A', url: 'https://acme.sentry.io/issues/42/', title: 'NullReferenceException: Object reference not set' }])
    expect(issues.body.data.trackers).toEqual([])
    const other = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token })
    expect(other.body.data.links).toEqual([])
    const [d] = (await bed.t.request('GET', `${bed.base}/sentry/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ status: 'succeeded', response: 'no Sentry issue with error type ArgumentException' })
    expect((await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/99/issues`, { token: bed.owner.token })).status).toBe(404)
  })
})
