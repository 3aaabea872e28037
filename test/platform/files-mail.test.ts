import { SMTPServer } from 'smtp-server'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { sniffMime } from '../../src/files/mime'
import { mailOutbox } from '../../src/mail/mail.table'
import { createSmtpTransport } from '../../src/mail/smtp-transport'
import { MINUTE } from '../../src/lib/clock'
import { createTestApp, type TestApp } from '../helpers/test-app'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])
let t: TestApp | undefined
afterEach(() => t?.close())

describe('file storage', () => {
  it('stores, serves and removes a blob under an unguessable key', async () => {
    t = createTestApp()
    const stored = await t.deps.files.store(t.deps.db, { data: PNG, fileName: 'shot.png', declaredType: 'image/png', kind: 'image', maxBytes: 1024 })
    expect(stored).toMatchObject({ mimeType: 'image/png', size: PNG.length, fileName: 'shot.png' })
    expect(stored.key).toMatch(/^[A-Za-z0-9_-]{43}\.png$/)
    expect(t.deps.files.url(stored.key)).toBe(`http://glitchbox.test/api/files/${stored.key}`)
    const opened = await t.deps.files.open(t.deps.db, stored.key)
    expect(new Uint8Array(await opened!.body.arrayBuffer())).toEqual(PNG)
    await t.deps.files.remove(t.deps.db, [stored.key])
    expect(await t.deps.files.open(t.deps.db, stored.key)).toBeNull()
  })

  it.each([
    ['a text file declared as an image', new TextEncoder().encode('hello'), 'image/png', 'image', /not allowed/],
    ['an executable as an attachment', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 'application/octet-stream', 'attachment', /not allowed/],
    ['a PNG declared as video', PNG, 'video/mp4', 'attachment', /does not match/],
    ['an oversized file', new Uint8Array(2048).fill(65), 'text/plain', 'attachment', /too large/],
    ['an empty file', new Uint8Array(), 'text/plain', 'attachment', /empty/],
  ] as const)('refuses %s', async (_name, data, declaredType, kind, re) => {
    t = createTestApp()
    await expect(t.deps.files.store(t.deps.db, { data, fileName: 'f', declaredType, kind, maxBytes: 1024 })).rejects.toThrow(re)
  })

  it('sniffs text, JSON and video containers', () => {
    expect(sniffMime(new TextEncoder().encode('{"a":1}'))).toBe('application/json')
    expect(sniffMime(new TextEncoder().encode('log line ünïcode\n'))).toBe('text/plain')
    expect(sniffMime(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe('video/webm')
    expect(sniffMime(new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]))).toBe('video/mp4')
  })
})

describe('mailer', () => {
  it('keeps mail in the outbox when SMTP is not configured', async () => {
    t = createTestApp()
    await t.deps.mailer.send(t.deps.db, { to: 'a@example.com', subject: 'Hi', text: 'Open http://glitchbox.test/x' })
    expect(await t.deps.db.read((q) => q.select().from(mailOutbox))).toMatchObject([{ to: 'a@example.com', status: 'kept' }])
    expect(t.logs.find((l) => l.msg === 'mail kept in outbox (no SMTP configured)')).toMatchObject({ links: ['http://glitchbox.test/x'] })
  })

  it('delays mail while the SMTP server is down and delivers it once it is back', async () => {
    const received: string[] = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let body = ''
        stream.on('data', (c) => (body += c))
        stream.on('end', () => {
          received.push(body)
          cb()
        })
      },
    })
    // Reserve a port, then keep the server down for the first attempt.
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.server.address() as { port: number }).port
    await new Promise<void>((r) => server.close(() => r()))
    t = createTestApp({ transport: createSmtpTransport(`smtp://127.0.0.1:${port}`) })
    await t.deps.mailer.send(t.deps.db, { to: 'player@example.com', subject: 'Welcome', text: 'plain part', html: '<p>html part</p>' })
    await t.runner.drain()
    expect(received).toHaveLength(0)
    expect((await t.deps.db.read((q) => q.select().from(mailOutbox).where(eq(mailOutbox.id, 1)).limit(1)))[0]!.status).toBe('queued')

    const again = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], onData: (server as any).options.onData })
    await new Promise<void>((r) => again.listen(port, '127.0.0.1', r))
    try {
      t.clock.advance(MINUTE)
      await t.runner.drain()
      expect(received).toHaveLength(1)
      expect(received[0]).toContain('Subject: Welcome')
      expect(received[0]).toContain('plain part')
      expect(received[0]).toContain('html part')
      expect((await t.deps.db.read((q) => q.select().from(mailOutbox).limit(1)))[0]!.status).toBe('sent')
    } finally {
      await new Promise<void>((r) => again.close(() => r()))
    }
  })
})
