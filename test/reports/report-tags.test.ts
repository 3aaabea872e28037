// Issue 29, item 6: which of a submission's metadata become its tags (report-tags.ts), and the
// escalating rule's edges (report-trend.ts).
import { describe, expect, it } from 'vitest'
import { isEscalating } from '../../src/modules/reports/report-trend'
import { MAX_TAGS, tagsOfMetadata } from '../../src/modules/reports/report-tags'
import { splitSearch } from '../../src/modules/reports/search-filters'

describe('tags of a submission', () => {
  it.each([
    ['Sentry tags as an object', { tags: { map: 'caves', fps: 60, vsync: false } }, [['map', 'caves'], ['fps', '60'], ['vsync', 'false']]],
    ["Sentry's older list of pairs", { tags: [['map', 'caves'], ['broken'], 'x'] }, [['map', 'caves']]],
    ['the SDK\'s custom fields after its tags; a key in both keeps the tag', { tags: { map: 'caves' }, custom_fields: { map: 'forest', slot: 3 } }, [['map', 'caves'], ['slot', '3']]],
    ['values trimmed; empty ones, nested ones and keys holding `=` left out', { tags: { a: '  x  ', b: '', c: { d: 1 }, 'e=f': 'g', ' ': 'h' } }, [['a', 'x']]],
    ['keys cut to 32 characters, values to 200', { tags: { ['k'.repeat(40)]: 'v'.repeat(300) } }, [['k'.repeat(32), 'v'.repeat(200)]]],
    ['no tags in a list, a string or nothing', ['tags'], []],
    ['no tags in null', null, []],
  ])('%s', (_, metadata, tags) => {
    expect(tagsOfMetadata(metadata)).toEqual(tags)
  })

  it(`keeps at most ${MAX_TAGS} tags`, () => {
    const tags = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, 'v']))
    expect(tagsOfMetadata({ tags })).toHaveLength(MAX_TAGS)
  })

  it('reads tag:key=value in a search, quoted when it holds spaces', () => {
    expect(splitSearch('crash tag:map=caves tag:"gpu=RTX 3060" is:escalating').filters).toMatchObject({ tags: ['map=caves', 'gpu=RTX 3060'], escalating: true })
  })
})

describe('the escalating rule', () => {
  it.each([
    [10, 0, true, 'new this hour, at the minimum'],
    [9, 0, false, 'new this hour, under the minimum'],
    [12, 2, true, 'well above its average'],
    [30, 240, false, 'exactly 3 times its average (10 an hour): not more'],
    [31, 240, true, 'just over 3 times its average'],
    [100, 2400, false, 'busy but steady'],
  ])('%i in the last hour, %i the day before: %s (%s)', (lastHour, dayBefore, escalating) => {
    expect(isEscalating(lastHour, dayBefore)).toBe(escalating)
  })
})
