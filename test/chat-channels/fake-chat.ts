/** What a fake provider received. */
export interface Hit {
  method: string
  path: string
  headers: Headers
  json: any
}

/**
 * A fake Discord and Slack on one port: Discord's `POST /api/webhooks/{id}/{token}` answers 204
 * (404 `Unknown Webhook` for the token `gone`), Slack's `POST /services/…` answers `ok`
 * (403 `invalid_token` when the path ends in `revoked`). `failNext` makes the next calls answer 500.
 */
export function startFakeChat() {
  const hits: Hit[] = []
  const state = { failNext: 0 }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const text = await req.text()
      hits.push({ method: req.method, path: url.pathname, headers: req.headers, json: text ? JSON.parse(text) : null })
      if (state.failNext > 0) {
        state.failNext--
        return Response.json({ message: 'Internal Server Error', code: 0 }, { status: 500 })
      }
      if (url.pathname.startsWith('/api/webhooks/')) {
        if (url.pathname.endsWith('/gone')) return Response.json({ message: 'Unknown Webhook', code: 10015 }, { status: 404 })
        return new Response(null, { status: 204 })
      }
      if (url.pathname.startsWith('/services/')) {
        if (url.pathname.endsWith('/revoked')) return new Response('invalid_token', { status: 403 })
        return new Response('ok')
      }
      return new Response('not found', { status: 404 })
    },
  })
  const base = `http://127.0.0.1:${server.port}`
  return {
    base,
    hits,
    state,
    discordUrl: (token = 'tok-abc_123') => `${base}/api/webhooks/1234567890/${token}`,
    slackUrl: (last = 'XXXXXXXXXXXXXXXXXXXXXXXX') => `${base}/services/T00000000/B00000000/${last}`,
    stop: () => server.stop(true),
  }
}
