import { describe, expect, it } from 'vitest'
import { ago, clientText, platformsText, readable, summaryParts } from './report-summary'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const before = (ms: number) => new Date(NOW - ms).toISOString()
const MIN = 60_000
const DAY = 24 * 60 * MIN

describe('ago', () => {
  it.each([
    [10_000, 'just now'],
    [4 * MIN, '4 min ago'],
    [59 * MIN, '59 min ago'],
    [3 * 60 * MIN, '3 h ago'],
    [3 * DAY, '3 d ago'],
    [59 * DAY, '59 d ago'],
    [150 * DAY, '5 mo ago'],
    [800 * DAY, '2 y ago'],
  ])('%i ms before → %s', (ms, text) => expect(ago(before(ms), NOW)).toBe(text))
})

describe('summaryParts', () => {
  const crash = { occurrence_count: 27, player_count: 22, first_seen: before(3 * DAY), last_seen: before(4 * MIN), first_version: '1.2.0', last_version: '1.3.0-beta' }
  it("reads as the issue's header line", () => {
    const platforms = [
      { value: 'Windows', count: 18 },
      { value: 'Linux', count: 4 },
    ]
    expect(summaryParts(crash, platforms, NOW).map((p) => p.text).join(' · ')).toBe('27 events · 22 players · first seen 3 d ago in 1.2.0 · last seen 4 min ago in 1.3.0-beta · Windows 18, Linux 4')
  })
  it('leaves out what is not known: players none named, last seen of a single event, versions and platforms not sent', () => {
    const single = { ...crash, occurrence_count: 1, player_count: 0, first_version: '', last_version: '' }
    expect(summaryParts(single, [{ value: '', count: 1 }], NOW)).toEqual([{ text: '1 event' }, { text: 'first seen 3 d ago', at: single.first_seen }])
    expect(summaryParts({ ...crash, occurrence_count: 3412, player_count: 1 }, null, NOW).map((p) => p.text)).toEqual(['3,412 events', '1 player', 'first seen 3 d ago in 1.2.0', 'last seen 4 min ago in 1.3.0-beta'])
  })
  it('names at most three platforms and counts the rest', () => {
    const many = ['Windows', 'Linux', 'macOS', 'Steam Deck', ''].map((value, i) => ({ value, count: 10 - i }))
    expect(platformsText(many)).toBe('Windows 10, Linux 9, macOS 8, 2 more')
    expect(platformsText([{ value: '', count: 2 }, { value: 'Linux', count: 1 }])).toBe('unknown 2, Linux 1')
  })
})

describe('clientText', () => {
  it.each([
    ['sentry.cocoa 8.1.0', 'via Sentry SDK (sentry.cocoa 8.1.0)'],
    ['sentry.javascript.browser 8.1.0', 'via Sentry SDK (sentry.javascript.browser 8.1.0)'],
    ['sentry', 'via Sentry SDK'],
    ['minidump upload', 'via Sentry minidump upload'],
    ['unreal-crash-reporter 1.0', 'via Unreal CrashReportClient (1.0)'],
    ['unreal-crash-reporter', 'via Unreal CrashReportClient'],
    ['custom-client 2', 'via custom-client 2'],
  ])('%s → %s', (client, text) => expect(clientText(client)).toBe(text))
  it('says nothing for reports of Glitchbox’s own SDK, widget or API', () => {
    expect(clientText(null)).toBeNull()
    expect(clientText('')).toBeNull()
  })
})

describe('readable', () => {
  it.each([
    [43.712345, '43.7'],
    [7.25123, '7.25'],
    [0.0123456, '0.0123'],
    [60, '60'],
    [99.96, '100'],
    [1234.56, '1,235'],
    [-12.345, '-12.3'],
    [0, '0'],
    [null, '–'],
    [Number.NaN, '–'],
  ])('%s → %s', (x, text) => expect(readable(x)).toBe(text))
})
