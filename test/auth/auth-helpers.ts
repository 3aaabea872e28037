import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import { SMTPServer } from 'smtp-server'
import type { MailTransport } from '../../src/mail/mailer'
import type { TestApp } from '../helpers/test-app'

export const PASSWORD = 'correct-horse-battery'

let seq = 0

/**
 * A mail transport that accepts every message: the app of a server with SMTP, where the first
 * signup gets a verification link like any other (without SMTP it is verified on the spot).
 */
export const ACCEPTING_SMTP: MailTransport = { send: async () => {} }

/** A unique address for one test. */
export const uniqueEmail = (prefix = 'player') => `${prefix}${++seq}-${Date.now().toString(36)}@example.com`

/** Signs up through the route and returns the Session data. */
export async function signupViaApi(t: TestApp, o: { email?: string; password?: string; name?: string } = {}) {
  const body = { email: o.email ?? uniqueEmail(), password: o.password ?? PASSWORD, ...(o.name !== undefined ? { name: o.name } : {}) }
  const res = await t.request('POST', '/api/auth/signup', { body })
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data as { token: string; user_id: string; email: string; name: string; onboarding_done: boolean; email_verified: boolean }
}

/** Decodes a quoted-printable MIME body enough to read links back. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
}

export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
  /** The raw message with quoted-printable soft breaks and escapes undone. */
  decoded: string
}

/** A real SMTP server on 127.0.0.1 (any port) that accepts every message without auth or TLS. */
export async function startFakeSmtp() {
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => (raw += chunk))
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return { port, url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The verification link in a mail, as sent. */
export function verificationLink(text: string): string {
  const m = /https?:\/\/[^\s"<>]+\/api\/auth\/verify-email\?token=[A-Za-z0-9_%-]+/.exec(text)
  if (!m) throw new Error(`no verification link in:\n${text}`)
  return m[0]
}

/** The path-and-query of a link, for `t.request`. */
export const pathOf = (link: string) => {
  const u = new URL(link)
  return u.pathname + u.search
}

/**
 * A local JWKS server with one RS256 key, plus a signer for ID tokens. `sign` uses the served key;
 * `signWithStrangerKey` uses a key the server does not publish, under the same kid (a forged token).
 */
export async function startJwks() {
  const kid = 'test-key-1'
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const stranger = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  let requests = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch() {
      requests++
      return Response.json({ keys: [jwk] })
    },
  })
  const sign = (key: CryptoKey) => async (o: { iss: string; aud: string; sub: string; now: Date; ttlSeconds?: number; claims?: JWTPayload }) => {
    const iat = Math.floor(o.now.getTime() / 1000)
    return new SignJWT(o.claims ?? {})
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(o.iss)
      .setAudience(o.aud)
      .setSubject(o.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (o.ttlSeconds ?? 3600))
      .sign(key)
  }
  return {
    url: `http://127.0.0.1:${server.port}/keys`,
    sign: sign(privateKey),
    signWithStrangerKey: sign(stranger.privateKey),
    requests: () => requests,
    close: () => server.stop(true),
  }
}

/** The secrets that appear in some log line (empty when none do). */
export function logsContainAny(t: TestApp, secrets: string[]): string[] {
  const text = JSON.stringify(t.logs)
  return secrets.filter((s) => text.includes(s))
}
