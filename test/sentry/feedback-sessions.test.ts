// Feedback items become player reports; session items become play sessions (CONTRACT.md § "Sentry SDKs", "Items").
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseFeedback } from '../../src/modules/sentry/protocol/feedback'
import { MAX_AGGREGATE_COUNT, MAX_AGGREGATES, parseSessionAggregates, parseSessionUpdate } from '../../src/modules/sentry/protocol/sessions'
import { fuzzSeed } from '../helpers/fuzz-seed'

/** The properties below run from this seed (GLITCHBOX_FUZZ_SEED replays another; fast-check prints it). */
const SEED = fuzzSeed(20261104)

describe('parseFeedback', () => {
  it('reads a user_report item (the older API)', () => {
    expect(parseFeedback('user_report', { event_id: '9EC79C33EC9942AB8353589FCB2E04DC', name: ' CaveDiver ', email: 'diver@example.com', comments: 'It froze at the waterfall.' })).toEqual({
      message: 'It froze at the waterfall.',
      name: 'CaveDiver',
      email: 'diver@example.com',
      associatedEventId: '9ec79c33ec9942ab8353589fcb2e04dc',
      url: null,
      gameVersion: null,
    })
  })

  it('reads a feedback item (an event carrying contexts.feedback)', () => {
    const item = { type: 'feedback', release: 'cave-game@1.4.2', contexts: { feedback: { message: 'Inventory never opened', contact_email: 'diver@example.com', name: 'CaveDiver', associated_event_id: 'e3058270-d3f7-4081-9c98-c3065ee843c6', url: 'game://forest-2' } } }
    expect(parseFeedback('feedback', item)).toEqual({
      message: 'Inventory never opened',
      name: 'CaveDiver',
      email: 'diver@example.com',
      associatedEventId: 'e3058270d3f740819c98c3065ee843c6',
      url: 'game://forest-2',
      gameVersion: '1.4.2',
    })
  })

  it('keeps feedback without a name, email or event, and drops what is not an email or an id', () => {
    expect(parseFeedback('feedback', { contexts: { feedback: { message: 'Too dark', contact_email: 'nope', associated_event_id: 'xyz' } } })).toMatchObject({ message: 'Too dark', name: null, email: null, associatedEventId: null })
  })

  it.each([
    ['user_report', { comments: '   ' }],
    ['user_report', { name: 'x' }],
    ['feedback', { contexts: {} }],
    ['feedback', { contexts: { feedback: { message: 42 } } }],
    ['feedback', { message: 'a top-level message is not feedback' }],
    ['feedback', null],
    ['user_report', 'text'],
  ] as const)('returns null for a %s item without a message: %j', (type, payload) => {
    expect(parseFeedback(type, payload)).toBeNull()
  })

  it('never throws', () => {
    fc.assert(fc.property(fc.constantFrom('feedback' as const, 'user_report' as const), fc.anything(), (type, v) => void parseFeedback(type, { comments: v, contexts: { feedback: v } })), { seed: SEED })
  })
})

describe('parseSessionUpdate', () => {
  it('reads a session update as @sentry/node sends it when a crash ends the session', () => {
    const s = parseSessionUpdate({ sid: '6b147e13dc30431c853e7fa0337a418e', init: true, started: '2024-05-01T10:00:00.000Z', timestamp: '2024-05-01T10:05:00.000Z', status: 'crashed', errors: 1, did: 'player-7', duration: 300.5, attrs: { release: 'cave-game@1.4.2', environment: 'playtest', user_agent: 'Mozilla/5.0' } })
    expect(s).toEqual({
      sessionId: '6b147e13dc30431c853e7fa0337a418e',
      distinctId: 'player-7',
      init: true,
      status: 'crashed',
      outcome: 'crash',
      started: new Date('2024-05-01T10:00:00.000Z'),
      timestamp: new Date('2024-05-01T10:05:00.000Z'),
      duration: 300.5,
      errors: 1,
      release: '1.4.2',
      environment: 'playtest',
      userAgent: 'Mozilla/5.0',
    })
  })

  it.each([
    ['ok', 'running'],
    ['exited', 'clean'],
    ['errored', 'clean'],
    ['crashed', 'crash'],
    ['abnormal', 'crash'],
    ['unhandled', 'crash'],
    ['CRASHED', 'crash'],
    ['something-new', 'running'],
  ])('status %s → %s', (status, outcome) => {
    expect(parseSessionUpdate({ sid: 'e4153808-e1be-4643-ba87-fc010dae18fd', status })?.outcome).toBe(outcome)
  })

  it('takes a missing status as ok, and junk fields as absent', () => {
    expect(parseSessionUpdate({ sid: 'e4153808-e1be-4643-ba87-fc010dae18fd', did: 42, errors: -3, duration: 'long', started: 'never', attrs: 'x' })).toMatchObject({
      status: 'ok',
      outcome: 'running',
      distinctId: '42',
      errors: 0,
      duration: null,
      started: null,
      release: null,
    })
  })

  it.each([[{}], [{ sid: 'not-a-uuid' }], [null], [[1]]])('returns null without a usable sid: %j', (payload) => {
    expect(parseSessionUpdate(payload)).toBeNull()
  })
})

describe('parseSessionAggregates', () => {
  it('reads the buckets of a sessions item with the item\'s release and environment', () => {
    expect(parseSessionAggregates({ attrs: { release: 'cave-game@1.4.2', environment: 'playtest' }, aggregates: [{ started: '2024-05-01T10:00:00Z', exited: 2, errored: 1 }, { started: '2024-05-01T10:01:00Z', did: 'p1', crashed: 1, abnormal: 2, unhandled: 3 }] })).toEqual([
      { started: new Date('2024-05-01T10:00:00Z'), distinctId: null, exited: 2, errored: 1, abnormal: 0, crashed: 0, unhandled: 0, release: '1.4.2', environment: 'playtest' },
      { started: new Date('2024-05-01T10:01:00Z'), distinctId: 'p1', exited: 0, errored: 0, abnormal: 2, crashed: 1, unhandled: 3, release: '1.4.2', environment: 'playtest' },
    ])
  })

  it('skips buckets without a start or any session, caps counts and the number of buckets', () => {
    const many = Array.from({ length: 500 }, () => ({ started: '2024-05-01T10:00:00Z', exited: 1e12 }))
    const out = parseSessionAggregates({ aggregates: [{ exited: 5 }, { started: '2024-05-01T10:00:00Z' }, { started: '2024-05-01T10:00:00Z', exited: -1, crashed: 'many' }, ...many] })
    expect(out).toHaveLength(MAX_AGGREGATES - 3)
    expect(out.every((b) => b.exited === MAX_AGGREGATE_COUNT && b.release === null)).toBe(true)
  })

  it('returns no buckets for junk', () => {
    for (const v of [null, 'x', { aggregates: 'x' }, { aggregates: [null, 1, 'a'] }]) expect(parseSessionAggregates(v)).toEqual([])
  })
})
