/**
 * A small load balancer on 127.0.0.1 for multi-node tests: each request goes to the next upstream in
 * turn. An upstream that refuses a connection (a killed node) is taken out of the rotation and that
 * request answered 502, as a balancer's health check would do; a request is never sent twice, so
 * an unanswered submit is never filed twice. `served`: how many answers each upstream gave.
 */
export function startRoundRobinProxy(upstreams: string[]) {
  const targets = [...upstreams]
  const down = new Set<string>()
  const served = new Map<string, number>(targets.map((u) => [u, 0]))
  let turn = 0
  const next = () => {
    const live = targets.filter((u) => !down.has(u))
    if (!live.length) return null
    return live[turn++ % live.length]!
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const target = next()
      if (!target) return new Response('no upstream', { status: 502 })
      const url = new URL(req.url)
      const headers = new Headers(req.headers)
      headers.delete('host')
      try {
        const res = await fetch(`${target}${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer(),
          redirect: 'manual',
        })
        // Read whole, so a node dying mid-answer fails this request here, not in the client.
        const body = await res.arrayBuffer()
        served.set(target, served.get(target)! + 1)
        // fetch decoded the body: its encoding and length headers no longer describe it.
        const out = new Headers(res.headers)
        out.delete('content-encoding')
        out.delete('content-length')
        return new Response(body, { status: res.status, headers: out })
      } catch {
        down.add(target)
        return new Response('upstream failed', { status: 502 })
      }
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    served,
    /** Puts an upstream (a node started later) into the rotation. */
    add(upstream: string) {
      targets.push(upstream)
      served.set(upstream, 0)
    },
    stop: () => server.stop(true),
  }
}
