// The fallback name of a mapped frame: the original function whose body encloses the position.
import { describe, expect, it } from 'vitest'
import { enclosingFunctionName } from '../../src/modules/debug-files/sourcemap-function-name'
import { openArtifactBundle } from '../../src/modules/debug-files/artifact-bundle'
import { bundleSourceMapStore } from '../../src/modules/debug-files/sourcemap-bundle-store'
import { candidateUrls, mapJsFrames, sourceMapImages } from '../../src/modules/debug-files/sourcemap-frames'
import { buildZip, manifest, SYSB_V2 } from './artifact-bundle-zip-builder'
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

describe('broken uploads', () => {
  const ID = 'eb8a03ee-620e-5f7d-97ce-ef8b05247bd4'
  /** A bundle whose one map is `map` (and whose CRC is wrong when `corrupt`). */
  async function storeWith(map: string, corrupt = false) {
    const files = manifest({ 'files/_/_/a.js': { type: 'minified_source', url: '~/a.js', headers: { 'debug-id': ID } }, 'files/_/_/a.js.map': { type: 'source_map', url: '~/a.js.map', headers: { 'debug-id': ID } } })
    const bytes = buildZip([{ name: 'files/_/_/a.js', data: 'x()' }, { name: 'files/_/_/a.js.map', data: map, ...(corrupt ? { claimedCrc: 1 } : {}) }, { name: 'manifest.json', data: files }], SYSB_V2)
    return bundleSourceMapStore([await openArtifactBundle(new Blob([bytes as Uint8Array<ArrayBuffer>]))])
  }
  const frames = [{ abs_path: 'https://x/a.js', lineno: 1, colno: 1 }, { abs_path: 'https://x/a.js', lineno: 1.5, colno: 1 }]
  const event = { images: [{ type: 'sourcemap', code_file: 'https://x/a.js', debug_id: ID }] }

  it.each([
    ['a map that is not JSON', '{"version":3,', false],
    ['a map that is not a source map', '{"version":3,"sources":7,"mappings":[]}', false],
    ['a map whose bytes fail their checksum', '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}', true],
  ])('leaves frames unmapped for %s, without failing', async (_what, map, corrupt) => {
    expect(await mapJsFrames({ frames, event, store: await storeWith(map, corrupt) })).toEqual([null, null])
  })

  it('maps what it can of garbled mappings without failing, and never a fractional line', async () => {
    const mapped = await mapJsFrames({ frames, event, store: await storeWith('{"version":3,"sources":["a.ts"],"names":[],"mappings":"!!!!;;@@"}') })
    expect(mapped).toHaveLength(2)
    expect(mapped[1]).toBeNull()
  })
})
