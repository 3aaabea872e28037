import { fileURLToPath } from 'node:url'

/**
 * The browser scripts the server hands out besides the dashboard: the public pages' vote script and
 * the embeddable widget. From source (`npm start`, tests) they are bundled with Bun.build on first
 * use; `npm run build` bundles them ahead of time into dist/web-assets/ and the binary embeds them
 * (embedded-scripts.ts, imported only when running as the compiled executable).
 */

export const WEB_SCRIPTS = {
  vote: '../public-pages/client/index.ts',
  widget: '../widget/widget.ts',
} as const
export type WebScriptName = keyof typeof WEB_SCRIPTS

export interface WebScript {
  body: Uint8Array<ArrayBuffer>
  /** First 10 hex digits of the SHA-256 of the body: names versioned URLs and serves as ETag. */
  hash: string
}

/** Bundles one script from source, minified for browsers; what the build embeds and what source runs serve. */
export async function bundleWebScript(name: WebScriptName): Promise<Uint8Array<ArrayBuffer>> {
  const entry = fileURLToPath(new URL(WEB_SCRIPTS[name], import.meta.url))
  const out = await Bun.build({ entrypoints: [entry], target: 'browser', minify: true, format: 'iife' })
  if (!out.success || !out.outputs[0]) throw new Error(`bundling ${name} failed: ${out.logs.map(String).join('\n')}`)
  return new Uint8Array(await out.outputs[0].arrayBuffer())
}

/** The copy embedded in a compiled binary, else undefined (running from source). */
async function embedded(name: WebScriptName): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!Bun.isStandaloneExecutable) return undefined
  const { EMBEDDED_SCRIPTS } = await import('./embedded-scripts')
  return new Uint8Array(await Bun.file(EMBEDDED_SCRIPTS[name]).arrayBuffer())
}

const loaded = new Map<WebScriptName, Promise<WebScript>>()

/** The script `name`, loaded once per process (embedded, else bundled from source). */
export function webScript(name: WebScriptName): Promise<WebScript> {
  let p = loaded.get(name)
  if (!p) {
    p = (async () => {
      const body = (await embedded(name)) ?? (await bundleWebScript(name))
      const hash = new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 10)
      return { body, hash }
    })()
    // A failed bundle is retried on the next request rather than kept.
    p.catch(() => loaded.delete(name))
    loaded.set(name, p)
  }
  return p
}

/** The versioned URL of the vote script, e.g. `/public-assets/vote.3f2a9c01de.js`. */
export const voteScriptUrl = async (): Promise<string> => `/public-assets/vote.${(await webScript('vote')).hash}.js`
