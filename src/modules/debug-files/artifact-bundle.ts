import * as z from 'zod'
import { ArtifactBundleError } from './artifact-bundle.errors'
import { DEFAULT_ZIP_LIMITS, unsafeEntryName, ZipArchive, type ZipLimits } from './artifact-bundle-zip'

/** One file the manifest lists: its path inside the zip, its kind and the URL it was served at (`~/game.js`). */
export interface ArtifactFile {
  path: string
  type: string | null
  url: string | null
  debugId: string | null
  /** The `sourcemap` header of a minified file: where its map lives, relative to its URL. */
  sourceMap: string | null
}

/** An opened bundle: its manifest, and its files read on demand. */
export interface ArtifactBundle {
  bundleId: string | null
  release: string | null
  dist: string | null
  files: ArtifactFile[]
  /** The text of one listed file (bounded by the zip limits). */
  readText(path: string): Promise<string>
}

const MANIFEST = 'manifest.json'
const MAGIC = 'SYSB'
const SUPPORTED_VERSION = 2

const fileInfo = z.object({
  type: z.string().max(100).nullish(),
  url: z.string().max(4096).nullish(),
  headers: z.record(z.string().max(200), z.unknown()).nullish(),
})
const manifestSchema = z.object({
  files: z.record(z.string().max(4096), fileInfo),
  debug_id: z.string().max(100).nullish(),
  release: z.string().max(250).nullish(),
  dist: z.string().max(64).nullish(),
})

/** A debug id in one spelling (lower-case, dashed UUID), or null when the text is not one. */
export function normalizeDebugId(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const hex = value.trim().replace(/-/g, '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(hex)) return null
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A header by its name in any case (symbolic lower-cases them on read; older writers did not). */
function header(headers: Record<string, unknown> | null | undefined, name: string): string | null {
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === name && typeof v === 'string') return v
  return null
}

/** Refuses anything but a `SYSB` bundle of a known version or a bare zip (sentry-cli 1.x release bundles). */
async function checkMagic(blob: Blob): Promise<void> {
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer())
  const magic = new TextDecoder().decode(head.subarray(0, 4))
  if (magic === MAGIC) {
    if (head.length < 8) throw new ArtifactBundleError('the bundle ends inside its header')
    const version = new DataView(head.buffer).getUint32(4, true)
    if (version !== SUPPORTED_VERSION) throw new ArtifactBundleError(`bundle format version ${version} is not supported`)
    return
  }
  if (magic.startsWith('PK')) return
  throw new ArtifactBundleError('not an artifact bundle (neither the SYSB header nor a zip)')
}

/**
 * Opens the file `sentry-cli sourcemaps upload` assembles: the `SYSB` header, then a zip holding
 * `manifest.json` and the files it lists. Reads the directory and the manifest only; every listed
 * file must be inside the archive.
 */
export async function openArtifactBundle(blob: Blob, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ArtifactBundle> {
  await checkMagic(blob)
  const zip = await ZipArchive.open(blob, limits)
  if (!zip.entries.has(MANIFEST)) throw new ArtifactBundleError('no manifest.json in the bundle')
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await zip.read(MANIFEST)))
  } catch (err) {
    if (err instanceof ArtifactBundleError) throw err
    throw new ArtifactBundleError('manifest.json is not valid JSON')
  }
  const parsed = manifestSchema.safeParse(json)
  if (!parsed.success) throw new ArtifactBundleError('manifest.json does not have the artifact bundle shape')
  const manifest = parsed.data
  const files: ArtifactFile[] = []
  for (const [path, info] of Object.entries(manifest.files)) {
    const unsafe = unsafeEntryName(path)
    if (unsafe) throw new ArtifactBundleError(`the manifest entry ${JSON.stringify(path.slice(0, 200))} ${unsafe}`)
    if (!zip.entries.has(path)) throw new ArtifactBundleError(`the manifest lists ${JSON.stringify(path.slice(0, 200))}, which the bundle does not hold`)
    files.push({
      path,
      type: info.type ?? null,
      url: info.url ?? null,
      debugId: normalizeDebugId(header(info.headers, 'debug-id')),
      sourceMap: header(info.headers, 'sourcemap') ?? header(info.headers, 'x-sourcemap'),
    })
  }
  const listed = new Set(files.map((f) => f.path))
  return {
    bundleId: normalizeDebugId(manifest.debug_id),
    release: manifest.release ?? null,
    dist: manifest.dist ?? null,
    files,
    async readText(path) {
      if (!listed.has(path)) throw new ArtifactBundleError(`${JSON.stringify(path.slice(0, 200))} is not listed in the manifest`)
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(await zip.read(path))
      } catch (err) {
        if (err instanceof ArtifactBundleError) throw err
        throw new ArtifactBundleError(`${path} is not UTF-8 text`)
      }
    },
  }
}
