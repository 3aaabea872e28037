import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, startServer } from '../helpers/server-process'
import { studioDataDir } from '../helpers/studio-data-dir'

afterAll(removeTempDataDirs)

const REPORTS = 10

describe('webhook deliveries across a kill -9', () => {
  it('makes every pending delivery after a restart; receivers dedupe by X-Glitchbox-Delivery', { timeout: 90_000 }, async () => {
    let slow = true
    const arrivals: { delivery: string; report: string }[] = []
    const receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(req) {
        const body = await req.json()
        arrivals.push({ delivery: req.headers.get('x-glitchbox-delivery')!, report: body.data.id })
        // Slow enough that the kill lands while deliveries are in flight.
        if (slow) await Bun.sleep(4_000)
        return new Response('ok')
      },
    })
    const { dataDir, token, project: { slug } } = await studioDataDir()
    const env = { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' }
    let server = await startServer({ dataDir, env })
    try {
      const api = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}/api/projects/${slug}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined }).then(async (r) => ({ status: r.status, body: await r.json() }))

      const hook = await api('POST', '/webhooks/generic', { url: `http://127.0.0.1:${receiver.port}/in`, event_types: 'bug_created' })
      expect(hook.status).toBe(201)
      const reportIds: string[] = []
      for (let i = 0; i < REPORTS; i++) {
        const res = await api('POST', '/bugs', { title: `Crash ${i}`, description: 'boom' })
        expect(res.status).toBe(201)
        reportIds.push(res.body.data.id)
      }
      while (arrivals.length === 0) await Bun.sleep(50)
      await Bun.sleep(300)
      await server.stop(9)
      const beforeCrash = arrivals.length
      expect(beforeCrash).toBeGreaterThan(0)
      expect(beforeCrash).toBeLessThan(REPORTS)

      slow = false
      server = await startServer({ dataDir, env })
      // The restarted server frees the dead process's leases at start-up, so every delivery resumes at once.
      const deliveriesPath = `/webhooks/generic/${hook.body.data.id}/deliveries`
      const succeeded = async () => (await api('GET', deliveriesPath)).body.data.filter((d: { status: string }) => d.status === 'succeeded').length
      const deadline = Date.now() + 15_000
      while ((await succeeded()) < REPORTS && Date.now() < deadline) await Bun.sleep(500)
      expect(await succeeded()).toBe(REPORTS)

      expect(new Set(arrivals.map((a) => a.report))).toEqual(new Set(reportIds))
      const deliveryIds = new Set(arrivals.map((a) => a.delivery))
      expect(deliveryIds.size).toBe(REPORTS)
      // The deliveries cut off by the kill were sent again with the id of their first try,
      // so a receiver that dedupes by X-Glitchbox-Delivery handles each event once.
      expect(arrivals.length).toBeGreaterThan(REPORTS)
      for (const id of deliveryIds) expect(new Set(arrivals.filter((a) => a.delivery === id).map((a) => a.report)).size).toBe(1)
    } finally {
      await server.stop('SIGTERM')
      receiver.stop(true)
    }
  })
})
