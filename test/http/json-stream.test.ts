import { describe, expect, it } from 'vitest'
import { ANY_INDEX, JsonStreamParser, JsonSyntaxError, type StringSink } from '../../src/http/json-stream/json-parser'

const bytes = (text: string) => new TextEncoder().encode(text)

/** Feeds `body` in chunks of the given sizes (repeated) and returns the value. */
function parse(body: Uint8Array, sizes: number[] = [body.length || 1], opts?: ConstructorParameters<typeof JsonStreamParser>[0]) {
  const parser = new JsonStreamParser(opts)
  for (let i = 0, k = 0; i < body.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length]!)
    parser.write(body.subarray(i, i + size))
    i += size
  }
  return parser.end()
}

/** A deterministic stream of chunk sizes from 1 to `max`. */
function randomSizes(seed: number, max: number, count = 64): number[] {
  let x = seed
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31
    return 1 + (x % max)
  })
}

const documents = [
  '{}',
  '[]',
  '0',
  '-0',
  '"text"',
  'true',
  'false',
  'null',
  '  \n\t\r {"a" : 1 , "b":[ 1 ,2, 3 ] }  \n',
  '{"title":"Crash","description":"Boss fight","priority":"high","metadata":{"scene":"Cliffs","fps":[60,58.5],"deep":{"x":[[[{}]]]}}}',
  '[1, -1, 0.5, -0.25, 1e3, 1E-3, -2.5e+10, 123456789012345678901234567890, 1.7976931348623157e308, 5e-324, 0.1]',
  '["quote \\" backslash \\\\ slash \\/ controls \\b\\f\\n\\r\\t"]',
  '["unicode \\u00e9\\u00C9 \\u20ac \\u0000 end"]',
  '["pair \\ud83d\\ude00 and lone \\ud800 and \\udc00 low"]',
  '["raw utf-8: é € 😀 中文"]',
  '{"__proto__":{"polluted":true},"constructor":1,"toString":"x"}',
  '{"dup":1,"dup":2}',
  '[true,false,null,[],{},"",0]',
  `{"long":"${'abc'.repeat(5000)}","esc":"${'\\n\\u0041'.repeat(2000)}"}`,
]

describe('JsonStreamParser: the same value as JSON.parse', () => {
  it.each(documents.map((d) => [d.length > 60 ? `${d.slice(0, 57)}...` : d, d]))('%s, whole, byte by byte and in random chunks', (_name, doc) => {
    const expected = JSON.parse(doc)
    const body = bytes(doc)
    expect(parse(body)).toEqual(expected)
    expect(parse(body, [1])).toEqual(expected)
    for (const seed of [1, 2, 3]) expect(parse(body, randomSizes(seed, 7))).toEqual(expected)
    expect(parse(body, randomSizes(4, 300))).toEqual(expected)
  })

  it('splits every token at every position', () => {
    const doc = '{"k\\u00e9y":[-12.5e-3,true,null,"\\ud83d\\ude00x\\"y"],"n":{"m":false}}'
    const body = bytes(doc)
    for (let cut = 1; cut < body.length; cut++) {
      const parser = new JsonStreamParser()
      parser.write(body.subarray(0, cut))
      parser.write(body.subarray(cut))
      expect(parser.end()).toEqual(JSON.parse(doc))
    }
  })

  it('keeps "__proto__" an own property and never the prototype', () => {
    const value = parse(bytes('{"__proto__":{"polluted":true}}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('replaces invalid UTF-8 like request.json()', async () => {
    const body = new Uint8Array([...bytes('{"a":"x'), 0xff, 0xfe, ...bytes('y"}')])
    expect(parse(body, [1])).toEqual(await new Response(body).json())
  })
})

describe('JsonStreamParser: malformed JSON', () => {
  it.each([
    '',
    '   ',
    '{',
    '{"a":1',
    '{"a" 1}',
    '{"a":1,}',
    '[1,]',
    '[1 2]',
    '{a:1}',
    "{'a':1}",
    '"unterminated',
    '"bad escape \\x"',
    '"bad unicode \\u12G4"',
    '"raw\ncontrol"',
    '"raw\ttab"',
    '01',
    '1.',
    '.5',
    '-',
    '+1',
    '1e',
    '0x10',
    'tru',
    'nul',
    'True',
    '{"a":1}}',
    '{"a":1} x',
    '[1]]',
    'NaN',
    '{"a":1}{"b":2}',
  ])('%j fails like JSON.parse', (doc) => {
    expect(() => JSON.parse(doc)).toThrow()
    expect(() => parse(bytes(doc))).toThrow(JsonSyntaxError)
    expect(() => parse(bytes(doc), [1])).toThrow(JsonSyntaxError)
  })

  it('refuses nesting deeper than maxDepth (64 by default) with a 400 as soon as it opens', () => {
    expect(parse(bytes(`${'['.repeat(64)}${']'.repeat(64)}`))).toHaveLength(1)
    expect(() => parse(bytes(`${'['.repeat(65)}${']'.repeat(65)}`))).toThrow('request body nests deeper than 64 levels')
    expect(parse(bytes('[[[1]]]'), undefined, { maxDepth: 3 })).toEqual([[[1]]])
    expect(() => parse(bytes('[[[[1]]]]'), undefined, { maxDepth: 3 })).toThrow(expect.objectContaining({ status: 400 }))
  })
})

/** A sink that gathers what it receives and stands in as `<path>#<n pieces>`. */
function collectingSinks() {
  const received: { path: (string | number)[]; text: string }[] = []
  const open = (path: (string | number)[]): StringSink => {
    const entry = { path, text: '' }
    received.push(entry)
    let pieces = 0
    return {
      write(text) {
        pieces++
        entry.text += text
      },
      end: () => `sunk:${path.join('.')}:${pieces > 0}`,
    }
  }
  return { received, open }
}

describe('JsonStreamParser: sink paths', () => {
  const sinkPaths = [['screenshot'], ['attachments', ANY_INDEX, 'data']]
  const doc = JSON.stringify({
    title: 'data',
    screenshot: 'data:image/png;base64,iVBORw0KGgo=',
    nested: { screenshot: 'not at the path' },
    attachments: [{ filename: 'a', data: 'YWJj\nZGVm' }, { data: 'Z2hp', meta: { data: 'deeper' } }, 'data'],
    data: 'not at the path',
  }).replace('iVBOR', 'iVB\\u004fR').replace('base64,', 'base64\\u002c')

  it.each([[[doc.length]], [[1]], [randomSizes(9, 5)]])('hands the strings at the paths to the sink, escapes resolved (chunks %j)', (sizes) => {
    const { received, open } = collectingSinks()
    const value = parse(bytes(doc), sizes, { sinkPaths, open }) as Record<string, any>
    expect(received).toEqual([
      { path: ['screenshot'], text: 'data:image/png;base64,iVBORw0KGgo=' },
      { path: ['attachments', 0, 'data'], text: 'YWJj\nZGVm' },
      { path: ['attachments', 1, 'data'], text: 'Z2hp' },
    ])
    expect(value.screenshot).toBe('sunk:screenshot:true')
    expect(value.attachments[0]).toEqual({ filename: 'a', data: 'sunk:attachments.0.data:true' })
    expect(value.attachments[1]).toEqual({ data: 'sunk:attachments.1.data:true', meta: { data: 'deeper' } })
    expect(value.attachments[2]).toBe('data')
    expect(value.nested).toEqual({ screenshot: 'not at the path' })
    expect(value.data).toBe('not at the path')
  })

  it('builds values that are not strings at a sink path as usual', () => {
    const { received, open } = collectingSinks()
    const value = parse(bytes('{"screenshot":null,"attachments":[{"data":5},{"data":["x"]}]}'), [3], { sinkPaths, open })
    expect(value).toEqual({ screenshot: null, attachments: [{ data: 5 }, { data: ['x'] }] })
    expect(received).toEqual([])
  })

  it('gives the sink an empty string with no pieces', () => {
    const { received, open } = collectingSinks()
    expect(parse(bytes('{"screenshot":""}'), undefined, { sinkPaths, open })).toEqual({ screenshot: 'sunk:screenshot:false' })
    expect(received).toEqual([{ path: ['screenshot'], text: '' }])
  })

  it('passes raw non-ASCII bytes one character per byte and refuses raw control characters', () => {
    const { received, open } = collectingSinks()
    parse(bytes('{"screenshot":"aé"}'), [1], { sinkPaths, open })
    expect(received[0]!.text).toHaveLength(3)
    expect(() => parse(bytes('{"screenshot":"ab\ncd"}'), undefined, { sinkPaths, open })).toThrow(JsonSyntaxError)
    expect(() => parse(bytes('{"screenshot":"abcd'), undefined, { sinkPaths, open })).toThrow(JsonSyntaxError)
  })
})

describe('JsonStreamParser: the cap on JSON outside the sinks', () => {
  const tooLarge = () => new Error('too much JSON besides the files')
  const sinkPaths = [['screenshot']]

  it('stops megabytes of numbers within 64 KB of the cap, before reading the rest', () => {
    const parser = new JsonStreamParser({ maxOutsideSinks: { bytes: 256 * 1024, tooLarge } })
    const body = bytes(`{"metadata":[${'1,'.repeat(2_000_000)}1]}`)
    let written = 0
    expect(() => {
      for (let at = 0; at < body.length; at += 1024 * 1024) {
        parser.write(body.subarray(at, at + 1024 * 1024))
        written += 1024 * 1024
      }
    }).toThrow('too much JSON besides the files')
    // Thrown during the first megabyte written, not after all four.
    expect(written).toBe(0)
  })

  it('does not count the sink strings: a 3 MB screenshot passes a 64 KB cap', () => {
    const { received, open } = collectingSinks()
    const doc = JSON.stringify({ title: 'Crash', screenshot: 'A'.repeat(3 * 1024 * 1024), description: 'x'.repeat(10_000) })
    const value = parse(bytes(doc), [100_000], { sinkPaths, open, maxOutsideSinks: { bytes: 64 * 1024, tooLarge } }) as Record<string, unknown>
    expect(received[0]!.text.length).toBe(3 * 1024 * 1024)
    expect(value.description).toHaveLength(10_000)
  })

  it('counts every other value, at any path', () => {
    const { open } = collectingSinks()
    const doc = JSON.stringify({ screenshot: 'AAAA', zzz: ['ab'.repeat(100_000)] })
    expect(() => parse(bytes(doc), [4096], { sinkPaths, open, maxOutsideSinks: { bytes: 64 * 1024, tooLarge } })).toThrow('too much JSON')
  })
})
