import fc from 'fast-check'

const deep = (depth: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v]
  return v
}

/** Strings that have broken parsers, FTS queries, path handling and logs elsewhere. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '"',
  '""',
  '"unterminated',
  '*',
  '**',
  'a*',
  '*a',
  'NEAR(',
  'a NEAR(b c',
  'NEAR(a b, 999999999)',
  '-',
  '--',
  '-a -b',
  'OR',
  'a OR',
  'OR OR OR',
  'AND NOT',
  '^',
  '^a',
  'a:b',
  'title:x',
  '(',
  ')',
  '{a}',
  "'; DROP TABLE reports; --",
  '../..',
  '../../etc/passwd',
  '..%2f..%2f',
  '%2e%2e',
  '%2e%2e%2f%2e%2e',
  '%',
  '%zz',
  '%00',
  '\\..\\..',
  '\uD800',
  '\uDFFF\uD800',
  '\uFFFE\uFFFF',
  '\u202Eevil',
  '🎮💥',
  'Z̴̢̛͕a̷l̵g̸o̶',
  'ﷺ',
  '\r\n\r\n',
  '<script>alert(1)</script>',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999999',
  '0x10',
  'sk_live_',
  'sk_live_' + 'A'.repeat(40),
  'a'.repeat(20_000),
  '€'.repeat(5_000),
]

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => s + ' OR ' + s + '*') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)) },
)

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

/** JSON values of every type: odd strings and numbers, big and deeply nested containers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(deep(70), deep(300), deep(2_000), Array.from({ length: 50_000 }, (_, i) => i), { __proto__: { x: 1 }, constructor: 'x' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
  ),
})).value

/** A segment for a path parameter: traversal, encodings, odd numbers, NUL. */
export const hostileSegment = fc.oneof(
  fc.constantFrom('../..', '..', '.', '%2e%2e', '%2e%2e%2f%2e%2e', '..%2F..%2Fhealth', '%00', '%ED%A0%80', '%C0%AE%C0%AE', '%FF', '%', '%zz', '-1', '0', '1.5', '1e3', '99999999999999999999', '%20', '~', 'a'.repeat(5_000), '🎮'),
  hostileString.map((s) => encodeURIComponent(s.toWellFormed())),
)

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=nope',
  'application/octet-stream',
  'x/y',
  '',
]

/** Bodies that are not what any route expects: broken JSON, deep nesting, NULs, binary. */
export const RAW_BODIES = [
  '{',
  '{"a":',
  '[]',
  'null',
  '"str"',
  '123',
  '{"title":"\u0000","description":"\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '\u0000\u0001\u0002',
  '[' .repeat(10_000) + ']'.repeat(10_000),
  '{"metadata":' + '['.repeat(50_000),
  '{"a":1,"a":2}',
  'a=1&b=2',
  '--nope\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--nope--',
]

type JsonSchema = Record<string, any>

/** Values at a schema's edges (longest strings, extreme numbers, fullest arrays, every enum value): valid input that stresses storage and search. */
export function edgeOf(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(null)
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (options) return fc.oneof(...options.map(edgeOf))
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]))
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type
  switch (type) {
    case 'string': {
      const max = Math.min(schema.maxLength ?? 5_000, 300_000)
      const min = schema.minLength ?? 0
      return fc.oneof(
        fc.constantFrom('x'.repeat(max), '"'.repeat(max), '\u0000'.repeat(Math.max(min, 1)), 'a OR b NEAR(c'.padEnd(Math.max(min, 13), '*').slice(0, max), '🎮'.repeat(Math.floor(max / 2)), ''.padEnd(min, 'é')),
        fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length >= min && s.length <= max)).filter(() => true),
      )
    }
    case 'integer':
    case 'number':
      return fc.constantFrom(schema.minimum ?? -(2 ** 53), schema.maximum ?? 2 ** 53, schema.exclusiveMaximum ?? 2 ** 31, 0, -1)
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.integer({ min: 0, max: Math.min(schema.maxItems ?? 200, 200) }).chain((n) => fc.array(edgeOf(schema.items), { minLength: n, maxLength: n }))
    case 'object':
      return fc.record(Object.fromEntries(Object.entries<JsonSchema>(schema.properties ?? {}).map(([k, v]) => [k, edgeOf(v)])), { requiredKeys: [] })
    default:
      return fc.constant({})
  }
}
