// The envelope format (develop.sentry.dev, "Envelopes"; Relay's parser is the reference for the edge
// cases): items with and without `length`, optional last newline, empty payloads, and hostile bodies
// that must end in a 400 or 413, never another error, a stall or a huge allocation.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ENVELOPE_LIMITS, parseEnvelope } from '../../src/modules/sentry/protocol/envelope'
import { SentryProtocolError } from '../../src/modules/sentry/protocol/protocol-error'
import { envelopeOf } from './sentry-helpers'
import { fuzzSeed } from '../helpers/fuzz-seed'
import { threadCpuMs } from '../helpers/cpu-time'

/** The properties below run from this seed (GLITCHBOX_FUZZ_SEED replays another; fast-check prints it). */
const SEED = fuzzSeed(20261102)

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'))
const str = (b: Uint8Array) => Buffer.from(b).toString('latin1')
const HEAD = '{"event_id":"9ec79c33-ec99-42ab-8353-589fcb2e04dc","dsn":"https://e12d836b15bb49d7bbf99e64295d995b@sentry.example/42","sent_at":"2024-05-01T10:00:00.000Z","sdk":{"name":"sentry.javascript.node","version":"8.0.0"}}'

/** The SentryProtocolError `run` throws (fails when it returns or throws anything else). */
function refusal(run: () => unknown): SentryProtocolError {
  try {
    run()
  } catch (err) {
    expect(err).toBeInstanceOf(SentryProtocolError)
    return err as SentryProtocolError
  }
  throw new Error('expected a refusal')
}

describe('parseEnvelope: the header', () => {
  it('reads event_id (as 32 hex digits), dsn, sent_at and sdk, with or without a newline after it', () => {
    for (const body of [HEAD, `${HEAD}\n`, `\n${HEAD}\r\n`]) {
      const { header, items } = parseEnvelope(bytes(body))
      expect(items).toEqual([])
      expect(header).toMatchObject({
        eventId: '9ec79c33ec9942ab8353589fcb2e04dc',
        dsn: 'https://e12d836b15bb49d7bbf99e64295d995b@sentry.example/42',
        sentAt: new Date('2024-05-01T10:00:00.000Z'),
        sdk: { name: 'sentry.javascript.node', version: '8.0.0' },
      })
    }
  })

  it('takes an empty header and junk in its fields as absent', () => {
    expect(parseEnvelope(bytes('{}')).header).toEqual({ eventId: null, dsn: null, sentAt: null, sdk: null, raw: {} })
    const { header } = parseEnvelope(bytes('{"event_id":42,"dsn":["x"],"sent_at":"yesterday","sdk":"node"}\n'))
    expect([header.eventId, header.dsn, header.sentAt, header.sdk]).toEqual([null, null, null, null])
  })

  it.each([
    ['an empty body', ''],
    ['blank lines only', '\n\n \r\n'],
    ['a header that is not JSON', '{"event_id":\n{"type":"event"}\n{}'],
    ['a header that is an array', '[1,2]\n'],
    ['a header that is a string', '"envelope"\n'],
    ['text', 'hello world'],
  ])('answers 400 for %s', (_name, body) => {
    expect(refusal(() => parseEnvelope(bytes(body))).status).toBe(400)
  })
})

describe('parseEnvelope: items', () => {
  it('reads items with an explicit length, whose payload may hold newlines and CRs (Relay\'s example)', () => {
    const body = `${HEAD}\n{"type":"attachment","length":10,"content_type":"text/plain","filename":"hello.txt"}\n\xef\xbb\xbfHello\r\n\n{"type":"event","length":41,"content_type":"application/json","filename":"application.log"}\n{"message":"hello world","level":"error"}\n`
    const { items } = parseEnvelope(bytes(body))
    expect(items.map((i) => [i.type, i.contentType, i.filename, str(i.payload)])).toEqual([
      ['attachment', 'text/plain', 'hello.txt', '\xef\xbb\xbfHello\r\n'],
      ['event', 'application/json', 'application.log', '{"message":"hello world","level":"error"}'],
    ])
    expect(items[1]!.json).toEqual({ message: 'hello world', level: 'error' })
    expect(items[0]!.json).toBeUndefined()
  })

  it.each([
    ['ending at a newline', `${HEAD}\n{"type":"attachment"}\nhelloworld\n`, ['helloworld']],
    ['ending the body', `${HEAD}\n{"type":"attachment"}\nhelloworld`, ['helloworld']],
    ['empty, ending the body after its header', `${HEAD}\n{"type":"attachment"}`, ['']],
    ['empty, then another item', `${HEAD}\n{"type":"attachment"}\n\n{"type":"attachment"}\nx`, ['', 'x']],
  ])('reads items without a length up to the next newline: %s', (_name, body, payloads) => {
    expect(parseEnvelope(bytes(body)).items.map((i) => str(i.payload))).toEqual(payloads)
  })

  it('reads zero-length items with and without the newline after them, and at the end of the body', () => {
    for (const body of [`${HEAD}\n{"type":"attachment","length":0}\n\n{"type":"attachment","length":0}\n`, `${HEAD}\n{"type":"attachment","length":0}\n\n{"type":"attachment","length":0}`]) {
      expect(parseEnvelope(bytes(body)).items.map((i) => i.payload.length)).toEqual([0, 0])
    }
  })

  it('reads past blank lines between items and CRLF line ends (clients that write \\r\\n)', () => {
    const body = `${HEAD}\r\n\r\n{"type":"event","length":2}\r\n{}\r\n\n{"type":"event"}\r\n{"a":1}\r\n\n`
    const { items } = parseEnvelope(bytes(body))
    expect(items.map((i) => i.json)).toEqual([{}, { a: 1 }])
  })

  it('returns unknown and dropped item types as they are, unparsed, alongside the kept ones', () => {
    const body = envelopeOf({}, [
      [{ type: 'client_report' }, '{"discarded_events":[]}'],
      [{ type: 'transaction', length: 9 }, 'not json!'],
      [{ type: 'made_up_type', length: 3 }, '\x00\x01\x02'],
      [{ type: 'session' }, '{"sid":"a","status":"ok"}'],
    ])
    const { items } = parseEnvelope(body)
    expect(items.map((i) => [i.type, i.json])).toEqual([
      ['client_report', undefined],
      ['transaction', undefined],
      ['made_up_type', undefined],
      ['session', { sid: 'a', status: 'ok' }],
    ])
  })

  it('keeps an attachment item\'s headers and binary payload byte for byte', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x0a])
    const { items } = parseEnvelope(envelopeOf({}, [[{ type: 'attachment', length: png.length, filename: 'screenshot.png', content_type: 'image/png', attachment_type: 'event.attachment' }, png]]))
    expect(items[0]).toMatchObject({ type: 'attachment', filename: 'screenshot.png', contentType: 'image/png', attachmentType: 'event.attachment' })
    expect([...items[0]!.payload]).toEqual([...png])
  })

  it.each([
    ['an item header that is not JSON', `${HEAD}\n{"type":\n{}`, /item 1 header is not valid JSON/],
    ['an item header that is an array', `${HEAD}\n["event"]\n{}`, /item 1 header is not a JSON object/],
    ['an item without a type', `${HEAD}\n{"length":2}\n{}`, /item 1 has no type/],
    ['an item header nested 1000 levels deep', `${HEAD}\n{"type":"x","a":${'['.repeat(1000)}${']'.repeat(1000)}}\n`, /item 1 header nests too deeply/],
    ['an item whose type is not a string', `${HEAD}\n{"type":7}\n{}`, /item 1 has no type/],
    ['a length given as text', `${HEAD}\n{"type":"event","length":"2"}\n{}`, /length must be a non-negative integer/],
    ['a negative length', `${HEAD}\n{"type":"event","length":-1}\n{}`, /length must be a non-negative integer/],
    ['a fractional length', `${HEAD}\n{"type":"event","length":1.5}\n{}`, /length must be a non-negative integer/],
    ['a length running past the body', `${HEAD}\n{"type":"attachment","length":100}\nshort\n`, /length 100 runs past the end of the envelope/],
    ['a huge length', `${HEAD}\n{"type":"attachment","length":9007199254740991}\nx`, /runs past the end/],
    ['a payload longer than its length', `${HEAD}\n{"type":"attachment","length":2}\nabc\n`, /no newline after its 2-byte payload/],
    ['an event that is not JSON', `${HEAD}\n{"type":"event"}\n{"message":`, /item 1 \(event\) is not valid JSON/],
    ['an event that is an array', `${HEAD}\n{"type":"event"}\n[]`, /is not a JSON object/],
    ['an empty event', `${HEAD}\n{"type":"event","length":0}\n`, /is not valid JSON/],
    ['a session that is a number', `${HEAD}\n{"type":"session"}\n42`, /item 1 \(session\) is not a JSON object/],
    ['an event nested 100 levels deep', `${HEAD}\n{"type":"event"}\n{"extra":${'['.repeat(100)}${']'.repeat(100)}}`, /nests too deeply/],
    ['a second item that is broken after a good one', `${HEAD}\n{"type":"event"}\n{}\n{"type":"event"}\n{`, /item 2 \(event\) is not valid JSON/],
  ])('answers 400 for %s', (_name, body, message) => {
    const err = refusal(() => parseEnvelope(bytes(body)))
    expect(err.status).toBe(400)
    expect(err.message).toMatch(message)
  })

  it('answers 413 for a JSON item over 1 MB, and reads an attachment of that size', () => {
    const big = JSON.stringify({ message: 'x'.repeat(1024 * 1024) })
    const err = refusal(() => parseEnvelope(envelopeOf({}, [[{ type: 'event' }, big]])))
    expect([err.status, err.message]).toEqual([413, 'item 1 (event) too large (max 1024 KB)'])
    expect(parseEnvelope(envelopeOf({}, [[{ type: 'attachment', length: big.length }, big]])).items[0]!.payload.length).toBe(big.length)
  })

  it('answers 400 for a header line over 64 KB without reading the rest of a body that has no newline', () => {
    const err = refusal(() => parseEnvelope(bytes(`{"x":"${'a'.repeat(10 * 1024 * 1024)}"}`)))
    expect([err.status, err.message]).toEqual([400, `envelope header is longer than ${64 * 1024} bytes`])
  })

  it('reads 1000 items and refuses 10,000 with 413 quickly', () => {
    const item = '{"type":"client_report"}\n{}\n'
    expect(parseEnvelope(bytes(`{}\n${item.repeat(ENVELOPE_LIMITS.maxItems)}`)).items).toHaveLength(1000)
    const started = threadCpuMs()
    const err = refusal(() => parseEnvelope(bytes(`{}\n${item.repeat(10_000)}`)))
    expect([err.status, err.message]).toEqual([413, 'envelope has more than 1000 items'])
    expect(threadCpuMs() - started).toBeLessThan(200)
  })

  it('refuses a 1 MB event nested without end in well under a second', () => {
    const depth = 500_000
    const started = threadCpuMs()
    expect(refusal(() => parseEnvelope(envelopeOf({}, [[{ type: 'event' }, `${'{"a":'.repeat(depth / 5)}1${'}'.repeat(depth / 5)}`]]))).status).toBe(400)
    expect(threadCpuMs() - started).toBeLessThan(1000)
  })
})

describe('parseEnvelope: any input', () => {
  const anyItem = fc.record({
    type: fc.constantFrom('event', 'attachment', 'session', 'transaction', 'user_report', 'x'),
    payload: fc.oneof(fc.json(), fc.string(), fc.uint8Array({ maxLength: 64 })),
    explicit: fc.boolean(),
  })

  it('parses back what SDKs write: every item\'s type and payload, with or without length', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ type: fc.constantFrom('attachment', 'replay_video', 'x'), payload: fc.uint8Array({ maxLength: 64 }) }), { maxLength: 8 }), fc.boolean(), (items, trailing) => {
        const body = envelopeOf({ event_id: 'a'.repeat(32) }, items.map((i) => [{ type: i.type, length: i.payload.length }, i.payload]), trailing)
        const parsed = parseEnvelope(body)
        expect(parsed.items.map((i) => [i.type, [...i.payload]])).toEqual(items.map((i) => [i.type, [...i.payload]]))
      }),
      { numRuns: 300, seed: SEED },
    )
  })

  it('never throws anything but a SentryProtocolError on mangled envelopes, and stays fast', () => {
    fc.assert(
      fc.property(fc.array(anyItem, { maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat(), (items, flips, cut) => {
        const body = envelopeOf(
          {},
          items.map((i) => {
            const payload = typeof i.payload === 'string' ? Buffer.from(i.payload) : i.payload
            return [i.explicit ? { type: i.type, length: payload.length } : { type: i.type }, payload]
          }),
        )
        for (const [at, b] of flips) if (body.length) body[at % body.length] = b
        const started = threadCpuMs()
        try {
          parseEnvelope(body.subarray(0, body.length ? cut % (body.length + 1) : 0))
        } catch (err) {
          expect(err).toBeInstanceOf(SentryProtocolError)
        }
        // A stall (a loop on some byte), not a slowdown: a parse takes well under 1 ms of CPU.
        expect(threadCpuMs() - started).toBeLessThan(2000)
      }),
      { numRuns: 1000, seed: SEED },
    )
  })

  it('never throws anything but a SentryProtocolError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (body) => {
        try {
          parseEnvelope(body)
        } catch (err) {
          expect(err).toBeInstanceOf(SentryProtocolError)
        }
      }),
      { numRuns: 1000, seed: SEED },
    )
  })
})
