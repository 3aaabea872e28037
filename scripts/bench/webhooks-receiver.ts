// A no-op webhook receiver for scripts/bench/webhooks.ts: answers 200 at once and counts what it got.
let count = 0
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
  fetch(req) {
    const path = new URL(req.url).pathname
    if (path === '/health') return new Response('ok')
    if (path === '/count') return Response.json({ count })
    count++
    return new Response('ok')
  },
})
console.log(`receiver on ${server.port}`)
