// The real sentry-cli against a minified bundle: Bun.build minifies a small game with a source map,
// `sentry-cli sourcemaps inject` gives it a debug id, `sentry-cli sourcemaps upload` sends the
// artifact bundle to a fake Sentry on 127.0.0.1, and the bundle it sent maps minified frames back.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openArtifactBundle, type ArtifactBundle } from '../../src/modules/debug-files/artifact-bundle'
import { bundleSourceMapStore } from '../../src/modules/debug-files/sourcemap-bundle-store'
import { symbolicateJsEvent } from '../../src/modules/debug-files/sourcemap-event'
import { mapJsFrames, type JsFrame } from '../../src/modules/debug-files/sourcemap-frames'
import { indexArtifactBundle } from '../../src/modules/debug-files/sourcemap-index'
import { exceptionsOf } from '../../src/modules/sentry/protocol/event-frames'
import { minifiedBuild, runSentryCli, sentryClis } from '../helpers/sentry-cli'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { startFakeSentryUpload, type FakeSentryUpload } from './fake-sentry-upload'

const CLIS = sentryClis('source map tests')

const GAME = `// A tiny game loop.
const MAX_HP = 50

export function spawnEnemy(level: number): number {
  const hp = level * 10
  if (hp > MAX_HP) {
    throw new Error('enemy too strong: ' + hp)
  }
  return hp
}

export function startGame(): void {
  for (let i = 0; i < 10; i++) spawnEnemy(i)
}

startGame()
`
const originalLine = (needle: string) => GAME.split('\n').findIndex((l) => l.includes(needle)) + 1

describe.each(CLIS)('sentry-cli %s sourcemaps inject + upload (the real binary) into an artifact bundle', (_version, cli) => {
  let dir = ''
  let fake: FakeSentryUpload
  let bundle: ArtifactBundle
  let minified = ''
  let debugId = ''

  const run = (cmd: string[], env: Record<string, string> = {}) => runSentryCli(cmd, dir, env)

  beforeAll(async () => {
    dir = tempDir('sourcemaps')
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src', 'game.ts'), GAME)
    const js = await minifiedBuild(join(dir, 'src', 'game.ts'), join(dir, 'dist'))

    const inject = await run([cli, 'sourcemaps', 'inject', 'dist'])
    expect(inject.code, inject.out).toBe(0)
    minified = readFileSync(js, 'utf8')
    debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(minified)![1]!

    fake = startFakeSentryUpload()
    const upload = await run([cli, 'sourcemaps', 'upload', '--org', 'studio', '--project', 'cave-game', '--release', '1.0.0', '--dist', 'web', 'dist'], { SENTRY_URL: fake.url, SENTRY_AUTH_TOKEN: 'glb_test_token' })
    expect(upload.code, upload.out).toBe(0)
    expect(fake.bundles).toHaveLength(1)
    bundle = await openArtifactBundle(new Blob([fake.bundles[0]!.bytes as Uint8Array<ArrayBuffer>]))
  }, 90_000)

  afterAll(() => {
    fake?.stop()
    if (dir) removeTempDir(dir)
  })

  /** The 1-based line and column of `needle` in the minified file, searching from `after`. */
  function at(needle: string, after = 0) {
    const offset = minified.indexOf(needle, after)
    expect(offset).toBeGreaterThanOrEqual(0)
    const before = minified.slice(0, offset).split('\n')
    return { lineno: before.length, colno: before.at(-1)!.length + 1 }
  }

  /** The three frames of the crash, outermost first as Sentry lists them. */
  function crashFrames(absPath: string): JsFrame[] {
    const callee = /([\w$]+) as spawnEnemy/.exec(minified)![1]!
    const loop = /([\w$]+) as startGame/.exec(minified)![1]!
    const loopBody = minified.indexOf(`function ${loop}(`)
    const topCall = minified.lastIndexOf(`${loop}()`)
    return [
      { abs_path: absPath, ...at(`${loop}()`, topCall), function: '?' },
      { abs_path: absPath, ...at(`${callee}(`, loopBody + 10), function: loop },
      { abs_path: absPath, ...at('throw'), function: callee },
    ]
  }

    it('sends the bundle through the chunk-upload and assemble endpoints with the token', () => {
      expect(fake.requests).toEqual(expect.arrayContaining(['GET /api/0/organizations/studio/chunk-upload/', 'POST /api/0/organizations/studio/chunk-upload/', 'POST /api/0/organizations/studio/artifactbundle/assemble/']))
      expect(fake.authorizations).toContain('Bearer glb_test_token')
      expect(fake.bundles[0]!.request).toMatchObject({ projects: ['cave-game'], version: '1.0.0', dist: 'web' })
    })

    it('reads the manifest: the minified file and its map, both under the injected debug id', () => {
      expect(bundle).toMatchObject({ release: '1.0.0', dist: 'web' })
      expect(bundle.files).toEqual(expect.arrayContaining([
        expect.objectContaining({ type: 'minified_source', url: '~/game.js', debugId, sourceMap: 'game.js.map' }),
        expect.objectContaining({ type: 'source_map', url: '~/game.js.map', debugId }),
      ]))
      expect(indexArtifactBundle(bundle)).toEqual([{ debugId, url: '~/game.js', sourceMapPath: expect.stringMatching(/game\.js\.map$/) }])
    })

    it('maps minified frames by debug id to the original functions, lines and five lines of context', async () => {
      const absPath = 'https://cdn.example.com/play/game.js'
      const mapped = await mapJsFrames({
        frames: crashFrames(absPath),
        event: { images: [{ type: 'sourcemap', code_file: absPath, debug_id: debugId.toUpperCase() }] },
        store: bundleSourceMapStore([bundle]),
      })
      const throwLine = originalLine('throw new Error')
      expect(mapped[2]).toMatchObject({ file: 'src/game.ts', line: throwLine, function: 'spawnEnemy', contextLine: "    throw new Error('enemy too strong: ' + hp)" })
      expect(mapped[2]!.preContext).toEqual(GAME.split('\n').slice(throwLine - 6, throwLine - 1))
      expect(mapped[2]!.postContext).toEqual(GAME.split('\n').slice(throwLine, throwLine + 5))
      expect(mapped[1]).toMatchObject({ file: 'src/game.ts', line: originalLine('spawnEnemy(i)'), function: 'startGame' })
      // The outermost frame runs at the top level of the module: no function encloses it.
      expect(mapped[0]).toMatchObject({ line: GAME.split('\n').lastIndexOf('startGame()') + 1, function: undefined })
    })

    it('falls back to release + dist + the path of abs_path (`~/game.js`) without a debug id', async () => {
      const store = bundleSourceMapStore([bundle])
      const frames = crashFrames('http://localhost:8080/game.js?v=3')
      const byRelease = await mapJsFrames({ frames, event: { release: '1.0.0', dist: 'web' }, store })
      expect(byRelease[2]).toMatchObject({ function: 'spawnEnemy', line: originalLine('throw new Error') })
      const otherDist = await mapJsFrames({ frames, event: { release: '1.0.0', dist: 'steam' }, store })
      expect(otherDist).toEqual([null, null, null])
    })

    it('leaves frames alone when the debug id is not among the uploads (another project’s id)', async () => {
      const absPath = 'https://cdn.example.com/play/game.js'
      const mapped = await mapJsFrames({
        frames: crashFrames(absPath),
        event: { images: [{ type: 'sourcemap', code_file: absPath, debug_id: '00000000-1111-2222-3333-444444444444' }] },
        store: bundleSourceMapStore([bundle]),
      })
      expect(mapped).toEqual([null, null, null])
    })

    it('symbolicates a browser SDK event in place, so the event mapping reads the original top frame', async () => {
      const absPath = 'https://cdn.example.com/play/game.js'
      const event = {
        event_id: 'a'.repeat(32), platform: 'javascript', release: '1.0.0',
        exception: { values: [{ type: 'Error', value: 'enemy too strong: 60', stacktrace: { frames: crashFrames(absPath) } }] },
        debug_meta: { images: [{ type: 'sourcemap', code_file: absPath, debug_id: debugId }] },
      }
      const { event: mapped, mapped: count } = await symbolicateJsEvent(event, bundleSourceMapStore([bundle]))
      expect(count).toBe(3)
      const [top] = exceptionsOf(mapped)[0]!.frames
      expect(top).toMatchObject({ function: 'spawnEnemy', file: 'src/game.ts', line: originalLine('throw new Error') })
      const frames = (mapped.exception as { values: { stacktrace: { frames: Record<string, unknown>[] } }[] }).values[0]!.stacktrace.frames
      expect(frames[2]).toMatchObject({ context_line: expect.stringContaining('throw new Error'), data: { minified: expect.stringMatching(/^https:\/\/cdn\.example\.com\/play\/game\.js:\d+:\d+$/) } })
      // The top-level frame has no original function: its minified name is dropped, not grouped on.
      expect(frames[0]).not.toHaveProperty('function')
      // The event given is left as it was.
      expect(event.exception.values[0]!.stacktrace.frames[2]!.function).not.toBe('spawnEnemy')
    })
})
