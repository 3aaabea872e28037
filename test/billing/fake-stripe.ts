/** One request the fake Stripe received. */
export interface StripeCall {
  method: string
  path: string
  query: string
  /** The raw form body. */
  body: string
  form: URLSearchParams
  headers: Headers
}

type Reply = { status?: number; body: unknown }
type Route = (call: StripeCall) => Reply | unknown

/**
 * A fake Stripe API on 127.0.0.1: records every request and answers from `routes`
 * (keyed `METHOD /v1/path`, `*` as one path segment) or 404 with Stripe's error shape.
 */
export function startFakeStripe(routes: Record<string, Route> = {}) {
  const calls: StripeCall[] = []
  const table: Record<string, Route> = { ...routes }
  const match = (method: string, path: string) => {
    for (const [key, route] of Object.entries(table)) {
      const [m, p] = key.split(' ')
      const re = new RegExp(`^${p!.replace(/\*/g, '[^/]+')}$`)
      if (m === method && re.test(path)) return route
    }
    return null
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      const call = { method: req.method, path: url.pathname, query: url.search.slice(1), body, form: new URLSearchParams(req.method === 'POST' ? body : url.search), headers: req.headers }
      calls.push(call)
      const route = match(req.method, url.pathname)
      if (!route) return Response.json({ error: { message: `No such route: ${req.method} ${url.pathname}`, type: 'invalid_request_error' } }, { status: 404 })
      const out = route(call)
      const reply = (out && typeof out === 'object' && 'body' in out ? out : { body: out }) as Reply
      return Response.json(reply.body, { status: reply.status ?? 200 })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    /** Adds or replaces a route. */
    on(key: string, route: Route) {
      table[key] = route
    },
    /** The calls to `METHOD path` (regex on the path). */
    callsTo(method: string, path: RegExp) {
      return calls.filter((c) => c.method === method && path.test(c.path))
    },
    stop: () => server.stop(true),
  }
}

export type FakeStripe = ReturnType<typeof startFakeStripe>

/** A Stripe subscription object (API 2024-06-20 shape). */
export function subscription(o: { id?: string; customer?: string; price?: string; status?: string; periodEnd?: number; cancelAtPeriodEnd?: boolean; accountId?: string }) {
  return {
    id: o.id ?? 'sub_1',
    object: 'subscription',
    customer: o.customer ?? 'cus_1',
    status: o.status ?? 'active',
    cancel_at_period_end: o.cancelAtPeriodEnd ?? false,
    current_period_end: o.periodEnd ?? 1_770_000_000,
    metadata: (o.accountId ? { account_id: o.accountId } : {}) as Record<string, string>,
    items: { data: [{ id: 'si_1', price: { id: o.price ?? 'price_pro' } }] },
  }
}
