// PostgreSQL's text cannot hold U+0000 (SQLite's can): a statement bound with a string that holds one
// fails with "invalid byte sequence", and the request answers 500. Every string parameter carries
// U+FFFD in its place instead, as lone surrogates already become U+FFFD: a NUL a client sends is stored,
// or looked up and not found, as on SQLite.

const REPLACEMENT = '\uFFFD'

/** `value` with each U+0000 replaced by U+FFFD when it is a string; anything else as it is. */
const withoutNul = (value: unknown) => (typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', REPLACEMENT) : value)

/** What of Bun's SQL client (or a transaction's) this wraps. */
type Client = { unsafe(query: string, params?: unknown[]): unknown }
type Scoped = (fn: (tx: Client) => unknown) => unknown

/**
 * `client` as Drizzle uses it (`unsafe(query, params)` for every statement, `begin(fn)` and
 * `savepoint(fn)` for a transaction, whose client `fn` receives is wrapped the same way) with NUL-free
 * string parameters.
 */
export function nulFreeClient<T extends Client>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (prop === 'unsafe') return (query: string, params?: unknown[]) => target.unsafe(query, params?.map(withoutNul))
      if (prop === 'begin' || prop === 'savepoint') return (fn: (tx: Client) => unknown) => (value as Scoped).call(target, (tx) => fn(nulFreeClient(tx)))
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
