// A stand-in for Discord on 127.0.0.1: its REST API (command registration, edits of deferred
// answers, channel messages) and its attachment host, recording every call, plus the signing of
// interactions with a key pair made for the test, as Discord signs them.

export interface RecordedCall {
  method: string
  path: string
  authorization: string | null
  body: unknown
}

export interface FakeDiscord {
  /** Base for GLITCHBOX_PROVIDER_URL_DISCORD. */
  apiUrl: string
  /** Base for GLITCHBOX_PROVIDER_URL_DISCORD_CDN; files put in `files` are served under it. */
  cdnUrl: string
  calls: RecordedCall[]
  /** Attachment bytes by path (`/attachments/1/2/shot.png`). */
  files: Map<string, { bytes: Uint8Array; type: string }>
  /** The status the REST API answers next (once), e.g. 401 for a refused bot token. */
  failNext(status: number, body?: unknown): void
  stop(): void
}

/** Starts the fake on a free port. */
export function startFakeDiscord(): FakeDiscord {
  let failure: { status: number; body: unknown } | null = null
  const state: FakeDiscord = {
    apiUrl: '', cdnUrl: '', calls: [], files: new Map(),
    failNext: (status, body = { message: 'Unknown', code: 0 }) => { failure = { status, body } },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      if (url.pathname.startsWith('/cdn/')) {
        const file = state.files.get(url.pathname.slice(4))
        return file ? new Response(file.bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': file.type } }) : new Response('not found', { status: 404 })
      }
      const path = url.pathname.replace(/^\/api\/v10/, '')
      const text = await req.text()
      state.calls.push({ method: req.method, path, authorization: req.headers.get('authorization'), body: text ? JSON.parse(text) : null })
      if (failure) {
        const f = failure
        failure = null
        return Response.json(f.body, { status: f.status })
      }
      if (req.method === 'PUT' && /^\/applications\/\d+\/guilds\/\d+\/commands$/.test(path)) {
        return Response.json((JSON.parse(text) as object[]).map((c, i) => ({ ...c, id: String(9000 + i), version: '1' })))
      }
      if (req.method === 'PATCH' && /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/.test(path)) return Response.json({ id: '1', ...JSON.parse(text) })
      if (req.method === 'POST' && /^\/channels\/\d+\/messages$/.test(path)) return Response.json({ id: '2', ...JSON.parse(text) })
      return Response.json({ message: '404: Not Found', code: 0 }, { status: 404 })
    },
  })
  state.apiUrl = `http://127.0.0.1:${server.port}/api/v10`
  state.cdnUrl = `http://127.0.0.1:${server.port}/cdn`
  return state
}

/** An application's key pair, and the headers Discord would send with a body signed by it. */
export async function discordSigner() {
  const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair
  const publicKeyHex = Buffer.from(await crypto.subtle.exportKey('raw', keys.publicKey)).toString('hex')
  return {
    publicKeyHex,
    /** `X-Signature-Ed25519` and `X-Signature-Timestamp` for `body` signed at `at` (default now). */
    async headers(body: string, at: Date = new Date()): Promise<Record<string, string>> {
      const timestamp = String(Math.floor(at.getTime() / 1000))
      const signature = await crypto.subtle.sign('Ed25519', keys.privateKey, Buffer.from(timestamp + body))
      return { 'x-signature-ed25519': Buffer.from(signature).toString('hex'), 'x-signature-timestamp': timestamp, 'content-type': 'application/json' }
    },
  }
}
