// Crafted bundles: every one is refused with a clear 400 message, read within bounded memory.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openArtifactBundle } from '../../src/modules/debug-files/artifact-bundle'
import { ArtifactBundleError } from '../../src/modules/debug-files/artifact-bundle.errors'
import { buildZip, manifest, SYSB_V2, type ZipInput } from './artifact-bundle-zip-builder'
import { fuzzSeed } from '../helpers/fuzz-seed'

const SEED = fuzzSeed(32)

const JS = 'files/_/_/game.js'
const MAP = 'files/_/_/game.js.map'
const DEBUG_ID = 'EB8A03EE-620E-5F7D-97CE-EF8B05247BD4'

const goodManifest = manifest({
  [JS]: { type: 'minified_source', url: '~/game.js', headers: { 'Debug-Id': DEBUG_ID, sourcemap: 'game.js.map' } },
  [MAP]: { type: 'source_map', url: '~/game.js.map', headers: { 'debug-id': DEBUG_ID } },
}, { release: '2.1', dist: 'web', debug_id: 'cdd99b5b-013d-57bd-8e23-019865c14868' })

const good: ZipInput[] = [
  { name: JS, data: 'function o(){throw Error("x")}o();\n//# sourceMappingURL=game.js.map', deflate: true },
  { name: MAP, data: '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}', deflate: true },
  { name: 'manifest.json', data: goodManifest, deflate: true },
]

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>])

/** The refusal a bundle gets: status and message. */
async function refusal(bytes: Uint8Array, read?: string) {
  try {
    const bundle = await openArtifactBundle(blob(bytes), { maxEntries: 100, maxDirectoryBytes: 1 << 20, maxEntryBytes: 1 << 20 })
    if (read) await bundle.readText(read)
  } catch (err) {
    expect(err).toBeInstanceOf(ArtifactBundleError)
    return { status: (err as ArtifactBundleError).status, message: (err as Error).message }
  }
  throw new Error('the bundle was accepted')
}

describe('openArtifactBundle', () => {
  it('reads a SYSB bundle: release, dist, files with lower-cased headers and normalized debug ids', async () => {
    const bundle = await openArtifactBundle(blob(buildZip(good, SYSB_V2)))
    expect(bundle).toMatchObject({ release: '2.1', dist: 'web', bundleId: 'cdd99b5b-013d-57bd-8e23-019865c14868' })
    expect(bundle.files).toEqual([
      { path: JS, type: 'minified_source', url: '~/game.js', debugId: DEBUG_ID.toLowerCase(), sourceMap: 'game.js.map' },
      { path: MAP, type: 'source_map', url: '~/game.js.map', debugId: DEBUG_ID.toLowerCase(), sourceMap: null },
    ])
    expect(await bundle.readText(MAP)).toContain('"mappings":"AAAA"')
  })

  it('reads a bare zip too (bundles of older sentry-cli releases)', async () => {
    const bundle = await openArtifactBundle(blob(buildZip(good)))
    expect(bundle.files).toHaveLength(2)
  })

  it.each([
    ['bytes that are no bundle', new TextEncoder().encode('hello, this is not a zip at all'), /neither the SYSB header nor a zip/],
    ['an unknown SYSB version', buildZip(good, new Uint8Array([0x53, 0x59, 0x53, 0x42, 9, 0, 0, 0])), /version 9 is not supported/],
    ['a bundle cut short', buildZip(good, SYSB_V2).subarray(0, 120), /not a zip archive/],
    ['a zip without manifest.json', buildZip(good.slice(0, 2), SYSB_V2), /no manifest\.json/],
    ['a manifest that is not JSON', buildZip([...good.slice(0, 2), { name: 'manifest.json', data: '{"files": [' }], SYSB_V2), /not valid JSON/],
    ['a manifest of the wrong shape', buildZip([...good.slice(0, 2), { name: 'manifest.json', data: '{"files": 3}' }], SYSB_V2), /does not have the artifact bundle shape/],
    ['a manifest naming a file the zip does not hold', buildZip([good[0]!, good[2]!], SYSB_V2), /lists "files\/_\/_\/game\.js\.map", which the bundle does not hold/],
    ['a manifest entry pointing outside the bundle', buildZip([...good.slice(0, 2), { name: 'manifest.json', data: manifest({ '../../etc/passwd': { type: 'source_map', url: '~/x' } }) }], SYSB_V2), /climbs out with "\.\."/],
    ['an archive entry pointing outside the bundle', buildZip([{ name: '../evil.js', data: 'x' }, ...good], SYSB_V2), /"\.\.\/evil\.js" climbs out/],
    ['an absolute archive entry', buildZip([{ name: '/etc/cron.d/x', data: 'x' }, ...good], SYSB_V2), /is an absolute path/],
  ])('refuses %s with a 400 naming the problem', async (_what, bytes, message) => {
    const { status, message: text } = await refusal(bytes)
    expect(status).toBe(400)
    expect(text).toMatch(message)
  })

  it('refuses an entry that declares 2 GB without inflating it', async () => {
    const bytes = buildZip([{ ...good[1]!, claimedSize: 2 ** 31 }, good[0]!, good[2]!], SYSB_V2)
    expect(await refusal(bytes, MAP)).toEqual({ status: 400, message: expect.stringMatching(/2147483648 bytes, more than the 1048576 allowed/) })
  })

  it('stops inflating a zip bomb at its declared size (50 MB of zeros claiming 1 KB)', async () => {
    const bomb = new Uint8Array(50 * 1024 * 1024)
    const bytes = buildZip([{ name: MAP, data: bomb, deflate: true, claimedSize: 1024 }, good[0]!, good[2]!], SYSB_V2)
    expect(bytes.length).toBeLessThan(1024 * 1024)
    expect(await refusal(bytes, MAP)).toEqual({ status: 400, message: expect.stringMatching(/inflates past its declared 1024 bytes/) })
  })

  it('refuses an entry whose checksum does not match', async () => {
    const bytes = buildZip([{ ...good[1]!, claimedCrc: 12345 }, good[0]!, good[2]!], SYSB_V2)
    expect((await refusal(bytes, MAP)).message).toMatch(/checksum mismatch/)
  })

  it('refuses a directory that points past the end of the file', async () => {
    const bytes = buildZip(good, SYSB_V2)
    const eocd = bytes.length - 22
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(eocd + 16, 0x7fffffff, true)
    expect((await refusal(bytes)).message).toMatch(/central directory offset lies outside the file/)
  })

  it('refuses more files than a bundle may hold', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `files/${i}.js`, data: 'x' }))
    expect((await refusal(buildZip(many, SYSB_V2))).message).toMatch(/101 files is more than the 100/)
  })

  it('refuses to read a file the manifest does not list', async () => {
    const extra = buildZip([{ name: 'files/secret.js', data: 'x' }, ...good], SYSB_V2)
    expect((await refusal(extra, 'files/secret.js')).message).toMatch(/not listed in the manifest/)
  })

  it('answers any corruption of a bundle with an ArtifactBundleError or a readable bundle, never another error', async () => {
    const original = buildZip(good, SYSB_V2)
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.nat(original.length), async (edits, cutAt) => {
        const bytes = original.slice(0, Math.max(cutAt, 1))
        for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value
        try {
          const bundle = await openArtifactBundle(blob(bytes))
          for (const file of bundle.files) await bundle.readText(file.path)
        } catch (err) {
          if (!(err instanceof ArtifactBundleError)) throw err
        }
      }),
      { seed: SEED, numRuns: 400 },
    )
  })
})
