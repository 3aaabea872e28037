import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Elysia } from 'elysia'
import { notFound } from '../../src/http/errors'
import { isServerPath } from '../app/server-paths'
import { FAVICON } from './favicon'
import { htmlSecurityHeaders, type ThirdPartySources } from './security-headers'

/**
 * Serves the dashboard: its one HTML shell at `/` and at every dashboard URL (web/README.md), so a
 * fresh visit to a deep link loads the app, and its hashed assets under `/assets/`.
 *
 * The shell comes from the HTML import `web/app/index.html` (web/server/dashboard-bundle.ts):
 * - in the compiled binary Bun has bundled it ahead of time and the import lists the bundled files
 *   (`files`, read from the binary's embedded file system); Bun links them from the root
 *   (`/chunk-<hash>.js`), so their references are moved under `/assets/` here;
 * - from source (`npm start`, tests) the import only names the HTML file, which is bundled here with
 *   `Bun.build` on the first request for the shell (about a second), minified, linked from `/assets/`.
 * Either way the result is kept in memory for the life of the process. `@elysiajs/static` is not
 * used: it cannot embed a folder into a compiled binary.
 */

export const ASSET_PREFIX = '/assets/'
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** What an HTML import gives at run time (Bun's `HTMLBundle`). */
export interface DashboardSource {
  index: string
  files?: { path: string; loader: string; headers: Record<string, string> }[]
}

/** The source of the dashboard when no HTML import is handed in (tests, which cannot import HTML). */
export const dashboardFromSource = (): DashboardSource => ({ index: fileURLToPath(new URL('../app/index.html', import.meta.url)) })

interface Asset {
  body: Uint8Array<ArrayBuffer>
  type: string
  etag: string
  /** Gzipped once, on the first request that accepts it (scripts shrink to about a quarter). */
  gzipped?: Uint8Array<ArrayBuffer>
}

interface Shell {
  html: string
  assets: Map<string, Asset>
}

/**
 * Every top-level dashboard path (web/README.md, "Dashboard URLs"); each also takes sub-paths and
 * answers the shell with 200. Other paths fall to the catch-all of `dashboardRoutes`, which leaves the
 * API's and the public pages' 404s as they are.
 */
export const DASHBOARD_PATHS = ['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email', '/projects', '/team', '/account', '/billing', '/invite']

const etagOf = (body: Uint8Array) => `"${new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 16)}"`
const textual = (type: string) => /^(text\/|application\/(javascript|json)|image\/svg)/.test(type)

/** Points root references to the bundled files (`/chunk-x.js`) at `/assets/chunk-x.js`. */
function relink(text: string, names: string[]): string {
  for (const name of names) text = text.replace(new RegExp(`(["'(=\\s])/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'), `$1${ASSET_PREFIX}${name}`)
  return text
}

async function fromCompiled(files: NonNullable<DashboardSource['files']>): Promise<Shell> {
  const htmlFile = files.find((f) => f.loader === 'html')
  if (!htmlFile) throw new Error('the bundled dashboard has no HTML file')
  const others = files.filter((f) => f !== htmlFile)
  const names = others.map((f) => basename(f.path))
  const assets = new Map<string, Asset>()
  for (const f of others) {
    const type = f.headers['content-type'] ?? 'application/octet-stream'
    let body = new Uint8Array(await Bun.file(f.path).arrayBuffer())
    if (textual(type)) body = new TextEncoder().encode(relink(new TextDecoder().decode(body), names))
    assets.set(basename(f.path), { body, type, etag: etagOf(body) })
  }
  return { html: relink(await Bun.file(htmlFile.path).text(), names), assets }
}

async function fromSource(index: string): Promise<Shell> {
  const out = await Bun.build({
    entrypoints: [index],
    target: 'browser',
    minify: true,
    publicPath: ASSET_PREFIX,
    naming: { entry: '[name]-[hash].[ext]', chunk: '[name]-[hash].[ext]', asset: '[name]-[hash].[ext]' },
  })
  if (!out.success) throw new Error(`bundling the dashboard failed:\n${out.logs.map(String).join('\n')}`)
  let html: string | undefined
  const assets = new Map<string, Asset>()
  for (const o of out.outputs) {
    if (o.type.startsWith('text/html')) {
      html = await o.text()
      continue
    }
    const body = new Uint8Array(await o.arrayBuffer())
    assets.set(basename(o.path), { body, type: o.type, etag: etagOf(body) })
  }
  if (!html) throw new Error(`bundling the dashboard gave no HTML (${join(index)})`)
  return { html, assets }
}

const shells = new Map<string, Promise<Shell>>()

/** The shell, loaded once per process; a failure is retried on the next request rather than kept. */
function loadShell(source: DashboardSource): Promise<Shell> {
  let shell = shells.get(source.index)
  if (!shell) {
    shell = source.files?.length ? fromCompiled(source.files) : fromSource(source.index)
    shell.catch(() => shells.delete(source.index))
    shells.set(source.index, shell)
  }
  return shell
}

/** Whether a request is a browser opening a page (it asks for HTML), not a script or a client of the API. */
const wantsPage = (request: Request) => (request.headers.get('accept') ?? '').includes('text/html')

/**
 * The dashboard shell and its assets (see the comment at the top of this file). Any other path a browser
 * opens, outside the server's own (web/app/server-paths.ts), gets the shell with status 404: the app
 * matches no route there and shows its "Page not found" screen. Other clients keep the JSON 404.
 */
export function dashboardRoutes(source: DashboardSource = dashboardFromSource(), thirdParty?: ThirdPartySources) {
  const load = () => loadShell(source)
  const shellResponse = async (status = 200) => new Response((await load()).html, { status, headers: htmlSecurityHeaders({ thirdParty }) })
  const app = new Elysia()
    .get('/', () => shellResponse())
    .get('/favicon.ico', () => new Response(FAVICON, { headers: { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400' } }), { detail: { hide: true } })
    .get(`${ASSET_PREFIX}*`, async ({ params, request }) => {
      const asset = (await load()).assets.get(params['*'])
      if (!asset) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      const headers: Record<string, string> = { 'content-type': asset.type, 'cache-control': IMMUTABLE, etag: asset.etag, vary: 'Accept-Encoding' }
      if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers })
      if (textual(asset.type) && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
        asset.gzipped ??= new Uint8Array(Bun.gzipSync(asset.body, { level: 9 }))
        return new Response(asset.gzipped, { headers: { ...headers, 'content-encoding': 'gzip' } })
      }
      return new Response(asset.body, { headers })
    })
  for (const path of DASHBOARD_PATHS) app.get(path, () => shellResponse()).get(`${path}/*`, () => shellResponse())
  app.get(
    '/*',
    ({ request, path }) => {
      if (isServerPath(path) || !wantsPage(request)) throw notFound()
      return shellResponse(404)
    },
    { detail: { hide: true } },
  )
  return app
}

/** Bundles the shell now (from source that takes a moment), so the first visitor does not wait for it. */
export async function warmDashboard(source: DashboardSource = dashboardFromSource()): Promise<void> {
  await loadShell(source)
}
