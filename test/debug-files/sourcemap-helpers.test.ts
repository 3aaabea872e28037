// The fallback name of a mapped frame: the original function whose body encloses the position.
import { describe, expect, it } from 'vitest'
import { enclosingFunctionName } from '../../src/modules/debug-files/sourcemap-function-name'
import { candidateUrls, sourceMapImages } from '../../src/modules/debug-files/sourcemap-frames'
import { resolveSourceMapUrl } from '../../src/modules/debug-files/sourcemap-index'

const SOURCE = `import { world } from './world'

function helper() { return 1 }

export class Player {
  async jump(height: number): Promise<void> {
    if (height > 3) {
      world.shake()
    }
  }
}

const onTick = (dt: number) => {
  function inner() {
  }
  world.step(dt)
}

world.start()
`.split('\n')

const lineOf = (needle: string) => SOURCE.findIndex((l) => l.includes(needle)) + 1

describe('enclosingFunctionName', () => {
  it.each([
    ['inside a nested block of a method', 'world.shake()', 'jump'],
    ['after a closed inner function', 'world.step(dt)', 'onTick'],
    ['at the top level, below functions that closed', 'world.start()', undefined],
  ])('%s', (_what, needle, name) => {
    const line = lineOf(needle)
    expect(enclosingFunctionName(SOURCE, line, SOURCE[line - 1]!.indexOf(needle))).toBe(name)
  })
})

describe('source map lookups', () => {
  it('reads sourcemap images of debug_meta, skipping other kinds and bad ids', () => {
    const images = sourceMapImages([
      { type: 'sourcemap', code_file: 'https://x/game.js', debug_id: 'EB8A03EE620E5F7D97CEEF8B05247BD4' },
      { type: 'elf', code_file: 'libgame.so', debug_id: 'eb8a03ee-620e-5f7d-97ce-ef8b05247bd4' },
      { type: 'sourcemap', code_file: 'https://x/other.js', debug_id: 'not-an-id' },
      'junk',
    ])
    expect([...images]).toEqual([['https://x/game.js', 'eb8a03ee-620e-5f7d-97ce-ef8b05247bd4']])
  })

  it('tries the URL without its query, then `~/path`', () => {
    expect(candidateUrls('https://cdn.example.com/assets/game.js?v=2#x')).toEqual(['https://cdn.example.com/assets/game.js', '~/assets/game.js'])
    expect(candidateUrls('app:///game.js')).toEqual(['app:///game.js', '~/game.js'])
    expect(candidateUrls('/static/game.js')).toEqual(['/static/game.js', '~/static/game.js'])
  })

  it('resolves a sourcemap header against the minified file URL', () => {
    expect(resolveSourceMapUrl('~/js/game.js', 'game.js.map')).toBe('~/js/game.js.map')
    expect(resolveSourceMapUrl('~/js/game.js', '../maps/game.js.map')).toBe('~/maps/game.js.map')
    expect(resolveSourceMapUrl('~/js/game.js', 'https://cdn/x.map')).toBe('https://cdn/x.map')
  })
})
