import { describe, expect, it } from 'vitest'
import { errorTypeMatches, splitSearch } from '../../src/modules/reports/search-filters'

describe('splitSearch: filters out of q, the words left exactly as typed', () => {
  it.each([
    ['crash version:1.3.0', { versions: ['1.3.0'] }, 'crash'],
    ['Platform:"Steam Deck" boss -audio', { platforms: ['Steam Deck'] }, 'boss -audio'],
    ['"version:1.3" fight', {}, '"version:1.3" fight'],
    ['"boss fight" OR freeze player:7656119 is:unassigned', { players: ['7656119'], unassigned: true }, '"boss fight" OR freeze'],
    ['--"exact" has:screenshot is:REGRESSION', { screenshot: true, regression: true }, '--"exact"'],
    ['error:System.NullReferenceException fingerprint:ABC', { errors: ['System.NullReferenceException'], fingerprints: ['ABC'] }, ''],
    ['version: screen', {}, 'version: screen'],
    ['"title:door" +platform:linux', { platforms: ['linux'] }, '"title:door"'],
    // Colons that are no filter stay text: a message, a URL, a time, a path, a C++ name.
    ['Error: boom https://game.example/a 12:30 C:\\Games std::vector', {}, 'Error: boom https://game.example/a 12:30 C:\\Games std::vector'],
    ['"unclosed version:1', {}, '"unclosed version:1'],
  ])('%s', (input, filters, text) => {
    const out = splitSearch(input)
    expect(out.text).toBe(text)
    expect(out.filters).toMatchObject(filters)
  })

  it.each(['is:open', 'has:logs', '-platform:Linux'])('refuses %s', (input) => {
    expect(() => splitSearch(input)).toThrow()
  })

  it.each([
    ['crash foo:bar', 'foo'],
    ['title:door', 'title'],
    ['Tags:"boss fight"', 'Tags'],
  ])('refuses %s as an unknown filter, not text (issue 29)', (input, key) => {
    expect(() => splitSearch(input)).toThrow(`unknown filter \`${key}:\``)
  })
})

describe('errorTypeMatches', () => {
  it.each([
    ['NullReferenceException', 'nullreferenceexception', true],
    ['System.NullReferenceException', 'NullReferenceException', true],
    ['std::out_of_range', 'out_of_range', true],
    ['System.NullReferenceException', 'ReferenceException', false],
    ['NullReferenceException', 'System.NullReferenceException', false],
  ])('%s answers error:%s → %s', (type, name, yes) => expect(errorTypeMatches(type, name)).toBe(yes))
})
