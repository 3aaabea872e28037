// Player sentiment (issue 29): a labelled set of 200 player-written bug reports, and the cases the
// launch-day walk got wrong ("Worst launch ever, I want a refund" was stored as positive).
import { describe, expect, it } from 'vitest'
import { scoreSentiment, type SentimentLevel } from '../../src/modules/ingest/sentiment'
import reports from '../fixtures/sentiment/player-reports.json'

const LEVEL: Record<string, SentimentLevel> = { frustrated: 'negative', neutral: 'neutral', pleased: 'positive' }
const level = (title: string, description = '') => scoreSentiment([title, description]).level

describe('sentiment of players’ reports', () => {
  it('agrees with the labels of 200 player-written reports at least 90% of the time', () => {
    expect(reports).toHaveLength(200)
    const missed = reports.filter((r) => level(r.title, r.description) !== LEVEL[r.label])
    expect(missed.length / reports.length, JSON.stringify(missed, null, 1)).toBeLessThanOrEqual(0.1)
  })

  it('reads "Worst launch ever, I want a refund" as negative, whatever fond memories follow it', () => {
    expect(level('Worst launch ever, I want a refund', 'I loved the beta and had so much fun with my friends, but 1.3.1 crashes on the title screen.')).toBe('negative')
  })

  it.each([
    ['Worst launch ever, I want a refund', 'negative'],
    ['Unplayable since the update, the lag is unbearable', 'negative'],
    ['Great, the patch wiped my save again. Thanks a lot /s', 'negative'],
    ['Not bad at all, runs smoothly on my laptop', 'positive'],
    ['No crashes since 1.3.1, thank you!', 'positive'],
    ['I am not happy with the new matchmaking at all', 'negative'],
    ['Enemy killed by a falling crate still attacks, boss stuck in the wall', 'neutral'],
    ['Crash when opening the map in the desert zone', 'neutral'],
    ['The constructor building in the city has no roof', 'neutral'],
  ])('"%s" is %s', (text, expected) => {
    expect(level(text)).toBe(expected)
    expect(Number.isFinite(scoreSentiment([text]).score)).toBe(true)
  })
})
