/** A local HTTP receiver that records every request and answers as told. */
export interface Received {
  headers: Headers
  body: string
  json: any
}

export function startReceiver(answer: (req: Received, n: number) => Response | Promise<Response> = () => new Response('ok')) {
  const received: Received[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      const r = { headers: req.headers, body, json: body ? JSON.parse(body) : null }
      received.push(r)
      return answer(r, received.length)
    },
  })
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) }
}

/** A port nothing listens on. */
export function closedPortUrl(): string {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = s.port
  s.stop(true)
  return `http://127.0.0.1:${port}/hook`
}
