import { Column, is, Param, Placeholder, SQL, Subquery } from 'drizzle-orm'

/**
 * Drizzle's SQLite prepared statements (`.prepare()`), run the way Drizzle runs them with the work
 * that does not change between runs done once. For every run Drizzle fills the placeholders with an
 * entity check (`is()`, which walks the class chain) per parameter, maps each row with four checks
 * per column, and wraps the run in a QueryPromise whose `then` goes through an async `execute`. The
 * repositories' hot statements (a report insert binds ~40 parameters) run on every filing: that was
 * ~5% of a filing's CPU. Here the kind of each parameter and the decoder of each column are worked
 * out at the first run, and `execute` answers a thenable that runs the statement when awaited, as
 * Drizzle's does. Same values bound, same rows, same errors; anything else is left to Drizzle.
 */

type Values = Record<string, unknown>
interface Encoder {
  mapToDriverValue(value: unknown): unknown
}
interface Decoder {
  mapFromDriverValue(value: unknown): unknown
}
/** One parameter: a placeholder's name (with the column's encoder, if any), or a constant (name null). One shape for all, so the loop below stays monomorphic. */
interface Slot {
  name: string | null
  encoder: Encoder | null
  constant: unknown
}

/** Drizzle's `fillPlaceholders`, its checks made once: placeholder, encoded placeholder or constant per parameter. */
function binderOf(params: unknown[]): (values: Values) => unknown[] {
  const slots: Slot[] = params.map((p) => {
    if (is(p, Placeholder)) return { name: p.name, encoder: null, constant: undefined }
    if (is(p, Param) && is(p.value, Placeholder)) return { name: p.value.name, encoder: p.encoder as Encoder, constant: undefined }
    return { name: null, encoder: null, constant: p }
  })
  return (values) => {
    const out = new Array<unknown>(slots.length)
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!
      const name = slot.name
      if (name === null) {
        out[i] = slot.constant
        continue
      }
      const value = values[name]
      if (value === undefined && !(name in values)) throw new Error(`No value for placeholder "${name}" was provided`)
      out[i] = slot.encoder ? slot.encoder.mapToDriverValue(value) : value
    }
    return out
  }
}

type Field = { path: string[]; field: unknown }

/**
 * Drizzle's `mapResultRow` for a flat selection (every field at the top level, no nested objects: then
 * joins have nothing to null out), its decoder per column picked once; null for other selections,
 * which Drizzle's own methods map.
 */
function flatMapperOf(fields: Field[]): ((row: unknown[]) => Record<string, unknown>) | null {
  if (!fields.every((f) => f.path.length === 1)) return null
  const names = fields.map((f) => f.path[0]!)
  const decoders = fields.map(({ field }): Decoder => {
    if (is(field, Column)) return field as unknown as Decoder
    type WithDecoder = { decoder: Decoder }
    if (is(field, SQL)) return (field as unknown as WithDecoder).decoder
    if (is(field, Subquery)) return (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder
    return (field as { sql: WithDecoder }).sql.decoder
  })
  return (row) => {
    const result: Record<string, unknown> = {}
    for (let i = 0; i < names.length; i++) {
      const raw = row[i]
      result[names[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw)
    }
    return result
  }
}

/** A promise of `callback(input)`; without a callback, of `input` itself (`rejected`: as the failure). */
function settle<R>(callback: ((input: any) => R | PromiseLike<R>) | null | undefined, input: unknown, rejected: boolean): Promise<R> {
  if (!callback) return rejected ? Promise.reject(input) : Promise.resolve(input as R)
  try {
    return Promise.resolve(callback(input))
  } catch (err) {
    return Promise.reject(err)
  }
}

/** What `execute` answers: the statement runs when awaited (as Drizzle's ExecuteResultSync), its result or error settling the promise. */
class Run<T> implements PromiseLike<T> {
  readonly [Symbol.toStringTag] = 'QueryPromise'
  constructor(private readonly run: () => T) {}
  then<A = T, B = never>(onFulfilled?: ((value: T) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    // `await` (and Promise.resolve) call this from a promise job of their own, so the callbacks run at
    // once: no promise of ours in between (a filing awaits ~10 statements).
    let value: T
    try {
      value = this.run()
    } catch (err) {
      return settle<B>(onRejected, err, true)
    }
    return settle<A>(onFulfilled, value, false)
  }
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onRejected)
  }
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then(
      (value) => {
        onFinally?.()
        return value
      },
      (reason) => {
        onFinally?.()
        throw reason
      },
    )
  }
  sync(): T {
    return this.run()
  }
}

/** The parts of Drizzle's bun-sqlite PreparedQuery used here (drizzle-orm/bun-sqlite/session.js). */
interface BunPrepared {
  /** bun:sqlite's statement: an array as the one argument binds its items by position (no spread into arguments). */
  stmt: { run(p: unknown[]): unknown; all(p: unknown[]): unknown[]; values(p: unknown[]): unknown[][] }
  query: { sql: string; params: unknown[] }
  logger: { logQuery(sql: string, params: unknown[]): void }
  fields?: Field[]
  customResultMapper?: (rows: unknown[][]) => unknown
  joinsNotNullableMap?: Record<string, boolean>
  executeMethod: 'run' | 'all' | 'get' | 'values'
  mode: string
  run(v?: Values): unknown
  all(v?: Values): unknown
  get(v?: Values): unknown
  values(v?: Values): unknown[][]
  execute(v?: Values): unknown
}

/** Gives a prepared statement the runs above (its methods, as Drizzle's, with the per-run checks made once). */
function faster(pq: BunPrepared): void {
  if (pq.mode !== 'sync') return
  // Drizzle's own methods, for what is not sped up here (mapped results, nested selections); they bind through the `values` below.
  const drizzles = Object.getPrototypeOf(pq) as BunPrepared
  let bind: ((values: Values) => unknown[]) | undefined
  let mapRow: ((row: unknown[]) => Record<string, unknown>) | null | undefined
  const paramsOf = (values: Values | undefined) => {
    const params = (bind ??= binderOf(pq.query.params))(values ?? {})
    pq.logger.logQuery(pq.query.sql, params)
    return params
  }
  /** The flat row mapper, or null when Drizzle's methods must map (a custom mapper, nested fields). */
  const flat = () => {
    if (mapRow === undefined) mapRow = pq.customResultMapper ? null : flatMapperOf(pq.fields!)
    return mapRow
  }
  pq.run = (values) => pq.stmt.run(paramsOf(values))
  pq.values = (values) => pq.stmt.values(paramsOf(values))
  pq.all = (values) => {
    if (!pq.fields && !pq.customResultMapper) return pq.stmt.all(paramsOf(values))
    const map = flat()
    return map ? pq.values(values).map(map) : drizzles.all.call(pq, values)
  }
  pq.get = (values) => {
    if (!pq.fields && !pq.customResultMapper) return pq.stmt.values(paramsOf(values))[0] ?? undefined
    const map = flat()
    if (!map) return drizzles.get.call(pq, values)
    const row = pq.stmt.values(paramsOf(values))[0]
    return row ? map(row) : undefined
  }
  pq.execute = (values) => new Run(() => pq[pq.executeMethod](values))
}

/** Compiled one-time statements kept per connection (see compiledOnce). */
export const ONE_TIME_STATEMENTS_KEPT = 256

interface Compiles {
  prepare(sql: string): { finalize(): void }
}

/**
 * A connection whose `prepare` hands back the statement it compiled last time for the same SQL text.
 * Drizzle compiles a one-time query (a builder awaited directly) on every run: 20–120 µs a query, ~0.4
 * ms of a report list page's 8 lookups. The least recently used statement past
 * ONE_TIME_STATEMENTS_KEPT is finalized: a one-time query runs at once, on the thread that compiled
 * it, so none is in use then. Only one-time queries go through it (a `.prepare()`d statement keeps its own).
 */
export function compiledOnce(client: Compiles, kept = ONE_TIME_STATEMENTS_KEPT): Compiles {
  const statements = new Map<string, ReturnType<Compiles['prepare']>>()
  return {
    prepare(sql) {
      let statement = statements.get(sql)
      if (statement) statements.delete(sql)
      else statement = client.prepare(sql)
      statements.set(sql, statement)
      if (statements.size > kept) {
        const [oldest, stale] = statements.entries().next().value!
        statements.delete(oldest)
        stale.finalize()
      }
      return statement
    },
  }
}

/**
 * Makes the statements a Drizzle SQLite database prepares with `.prepare()` run as above. One-time
 * queries (a builder awaited directly) run once: working their checks out first would only add to it,
 * so they keep Drizzle's path, on a statement compiled once per SQL text (compiledOnce).
 */
export function fasterPreparedStatements(db: object): void {
  type Session = { client?: Compiles; prepareQuery?: (...args: unknown[]) => unknown; prepareOneTimeQuery?: (...args: unknown[]) => unknown }
  const session = (db as { session?: Session }).session
  if (!session?.prepareQuery || !session.prepareOneTimeQuery || !session.client) return
  const prepareQuery = session.prepareQuery.bind(session)
  // Drizzle's prepareOneTimeQuery is prepareQuery with the same arguments, here on the caching connection.
  const oneTime: Session = Object.create(session, { client: { value: compiledOnce(session.client) } })
  const prepareOneTime = session.prepareQuery.bind(oneTime)
  session.prepareOneTimeQuery = (...args: unknown[]) => prepareOneTime(...args)
  session.prepareQuery = (...args: unknown[]) => {
    const pq = prepareQuery(...args) as BunPrepared
    faster(pq)
    return pq
  }
}
