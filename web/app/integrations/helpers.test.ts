import { describe, expect, it } from 'vitest'
import { connectBody, fieldChoices, fieldLabel, formFromConnection, groupByKind, initialForm, planBadge, replyLimit, targetField, unavailableReason, updateBody } from './helpers'
import type { ProviderView } from './types'

const provider = (over: Partial<ProviderView>): ProviderView => ({
  key: 'slack',
  name: 'Slack',
  kind: 'chat',
  events: ['bug_created', 'bug_updated', 'comment_added', 'digest'],
  default_events: ['bug_created', 'bug_updated'],
  default_min_priority: 'low',
  credential: { label: 'Incoming webhook URL', help: '…', url: 'https://api.slack.com/messaging/webhooks' },
  config: {},
  available: true,
  ...over,
})
const linear = provider({ key: 'linear', name: 'Linear', kind: 'tracker', events: ['bug_created', 'bug_updated'], config: { team_id: 'the team to file in, picked from targets', status_map: 'optional: our status → state' } })
const jira = provider({ key: 'jira', name: 'Jira', kind: 'tracker', plan: 'pro', config: { site: 'host', email: 'email', project_id: 'picked from targets' } })

describe('groupByKind', () => {
  it('orders kinds chat, alerting, trackers, crash link, stores and drops empty ones', () => {
    const groups = groupByKind([linear, provider({ key: 'sentry', kind: 'crash_link' }), provider({}), jira])
    expect(groups.map((g) => [g.title, g.providers.map((p) => p.key)])).toEqual([
      ['Chat', ['slack']],
      ['Issue trackers', ['linear', 'jira']],
      ['Crash link', ['sentry']],
    ])
  })
})

describe('unavailableReason', () => {
  it('names the plan when the account lacks the feature (with billing), nothing when it has it', () => {
    expect(unavailableReason(jira, { jira: false }, 'Free', true)).toBe('Jira needs the Pro plan or higher (this account is on Free).')
    expect(unavailableReason(jira, { jira: true }, 'Pro', true)).toBeUndefined()
    expect(unavailableReason(provider({}), { jira: false }, 'Free', true)).toBeUndefined()
  })
  it('names no plan without billing', () => {
    expect(unavailableReason(jira, { jira: false }, 'Free', false)).toBe("This account does not have Jira: the server's operator can add it with glitchbox admin set-plan.")
    expect([planBadge(jira, true), planBadge(jira, false), planBadge(linear, true)]).toEqual(['Pro plan', null, null])
  })
  it('says when the server cannot connect a provider yet', () => {
    expect(unavailableReason(provider({ name: 'Notion', available: false }), {}, 'Free', false)).toBe('Notion is not available on this server yet.')
  })
})

describe('connect form', () => {
  it('starts with the default events and priority, and finds the field targets fill', () => {
    expect(initialForm(linear)).toEqual({ name: '', secret: '', events: ['bug_created', 'bug_updated'], minPriority: 'low', config: { team_id: '', status_map: '' } })
    expect(targetField(linear)).toBe('team_id')
    expect(targetField(provider({}))).toBeUndefined()
  })
  it('builds the body: trimmed secret, events in provider order, empty config left out, status_map parsed', () => {
    const f = { ...initialForm(linear), secret: '  lin_api_key ', events: ['bug_updated', 'bug_created'], config: { team_id: 'T1', status_map: '{"resolved":"Done"}' } }
    expect(connectBody(linear, f)).toEqual({ secret: 'lin_api_key', event_types: ['bug_created', 'bug_updated'], min_priority: 'low', config: { team_id: 'T1', status_map: { resolved: 'Done' } } })
    expect(connectBody(provider({}), { ...initialForm(provider({})), secret: 'https://hooks', name: ' Bugs ' })).toEqual({ secret: 'https://hooks', name: 'Bugs', event_types: ['bug_created', 'bug_updated'], min_priority: 'low' })
    expect(() => connectBody(linear, { ...f, config: { team_id: 'T1', status_map: '{nope' } })).toThrow(/status_map must be JSON/)
  })
  it('offers the two choices a region field names', () => {
    expect(fieldChoices('us or eu (the PagerDuty service region; default us)')).toEqual(['us', 'eu'])
    expect(fieldChoices('the app package, e.g. com.studio.game')).toBeUndefined()
  })
})

it('reply limits: 350 characters on Google Play', () => {
  expect(replyLimit('google_play')).toBe(350)
  expect(replyLimit('app_store')).toBe(5970)
})

describe('edit form', () => {
  const saved = {
    id: 'c1',
    provider: 'linear',
    provider_name: 'Linear',
    kind: 'tracker' as const,
    name: 'Linear',
    secret_hint: '…cdef',
    event_types: ['bug_created' as const],
    min_priority: 'medium' as const,
    config: { team_id: 'T1', status_map: { resolved: 'Done' } },
    is_active: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  }
  it('starts from the saved connection with the secret empty', () => {
    expect(formFromConnection(linear, saved)).toEqual({ name: 'Linear', secret: '', events: ['bug_created'], minPriority: 'medium', config: { team_id: 'T1', status_map: '{"resolved":"Done"}' } })
  })
  it('sends only what changed', () => {
    const f = formFromConnection(linear, saved)
    expect(updateBody(linear, f, saved)).toEqual({})
    expect(updateBody(linear, { ...f, events: ['bug_created', 'bug_updated'], minPriority: 'high' }, saved)).toEqual({ event_types: ['bug_created', 'bug_updated'], min_priority: 'high' })
    expect(updateBody(linear, { ...f, secret: ' lin_api_new ', config: { ...f.config, team_id: 'T2' } }, saved)).toEqual({ secret: 'lin_api_new', config: { team_id: 'T2', status_map: { resolved: 'Done' } } })
    expect(updateBody(linear, { ...f, name: 'Game team' }, saved)).toEqual({ name: 'Game team' })
  })
})

it('config keys read as labels', () => {
  expect(fieldLabel('package_name')).toBe('Package name')
  expect(fieldLabel('team_id')).toBe('Team id')
})
