import type { Server } from 'bun'
import { parseIp } from '../net/ip-ranges'

/**
 * Which `X-Forwarded-For` entries the server believes (`GLITCHBOX_TRUST_PROXY`): none (the socket
 * peer is the client), a number of proxy hops behind a peer on a local network, or the networks of
 * trusted proxies.
 */
export type TrustProxy = { hops: number } | { cidrs: readonly Cidr[] }

export interface Cidr {
  /** 16 bytes: IPv4 as its IPv4-mapped IPv6 form, as `parseIp` gives it. */
  bytes: Uint8Array
  bits: number
  /** As configured, for the start-up log. */
  text: string
}

/** Parses `GLITCHBOX_TRUST_PROXY`: `false`/`true`, a hop count, or comma-separated CIDRs; throws a sentence on a bad value. */
export function parseTrustProxy(raw: string): TrustProxy {
  const v = raw.trim().toLowerCase()
  if (['false', 'no', 'off'].includes(v)) return { hops: 0 }
  if (['true', 'yes', 'on'].includes(v)) return { hops: 1 }
  if (/^\d+$/.test(v)) {
    const hops = Number(v)
    if (hops > 100) throw new Error('a hop count must be at most 100')
    return { hops }
  }
  const cidrs = v.split(',').map((part) => {
    const cidr = parseCidr(part.trim())
    if (!cidr) throw new Error(`"${part.trim().slice(0, 60)}" is not true, false, a number of proxies or a CIDR such as 10.0.0.0/8`)
    return cidr
  })
  return { cidrs }
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address (one host). */
function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/')
  const addr = slash < 0 ? text : text.slice(0, slash)
  const bytes = parseIp(addr)
  if (!bytes) return null
  const isV4 = !addr.includes(':')
  const max = isV4 ? 32 : 128
  const len = slash < 0 ? max : /^\d{1,3}$/.test(text.slice(slash + 1)) ? Number(text.slice(slash + 1)) : -1
  if (len < 0 || len > max) return null
  return { bytes, bits: isV4 ? 96 + len : len, text }
}

/**
 * Where a proxy counted by hops (`true`, N) must connect from: loopback, private (RFC 1918, unique
 * local fc00::/7) and link-local networks. A server exposed directly gets its clients' public
 * addresses as peers, and their `X-Forwarded-For` is then whatever they wrote; a public proxy has
 * to be named by its CIDR.
 */
const LOCAL_NETWORKS = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '::1', 'fc00::/7', 'fe80::/10'].map(
  (text) => parseCidr(text)!,
)

function inCidr(ip: Uint8Array, c: Cidr): boolean {
  const full = c.bits >> 3
  for (let i = 0; i < full; i++) if (ip[i] !== c.bytes[i]) return false
  const rem = c.bits & 7
  if (rem === 0) return true
  const mask = (0xff << (8 - rem)) & 0xff
  return (ip[full]! & mask) === (c.bytes[full]! & mask)
}

const trusted = (address: string, cidrs: readonly Cidr[]) => {
  const ip = parseIp(address)
  return ip !== null && cidrs.some((c) => inCidr(ip, c))
}

/** The socket peer; in-process requests (tests) have none and count as 127.0.0.1. */
const peerOf = (request: Request, server: Server<unknown> | null | undefined) => server?.requestIP(request)?.address ?? '127.0.0.1'

/**
 * The client address used for rate limits and anonymous votes. Proxies append the address they
 * received from to `X-Forwarded-For`, so only entries from the right are believed: with N hops the
 * N-th from the right (the left-most present when fewer arrived), and only when the socket peer is
 * on a local network (else the peer is the client); with trusted networks the first
 * entry from the right, past the socket peer, that is not a trusted proxy. The left-most entry is
 * whatever the client wrote and is never taken on its own word.
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trust: TrustProxy): string {
  if ('hops' in trust) {
    const peer = peerOf(request, server)
    if (trust.hops === 0 || !trusted(peer, LOCAL_NETWORKS)) return peer
    const forwarded = request.headers.get('x-forwarded-for')
    if (!forwarded) return peer
    // The common case, one proxy: the text after the last comma, without splitting the header.
    if (trust.hops === 1) return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() || peer
    const entries = forwarded.split(',')
    const at = Math.max(0, entries.length - trust.hops)
    return entries[at]!.trim() || peer
  }
  const peer = peerOf(request, server)
  if (!trusted(peer, trust.cidrs)) return peer
  const entries = request.headers.get('x-forwarded-for')?.split(',') ?? []
  let client = peer
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!.trim()
    if (!entry) continue
    client = entry
    if (!trusted(entry, trust.cidrs)) return entry
  }
  return client
}

/** The mode in force, in words, for the start-up log. */
export function describeTrustProxy(trust: TrustProxy): string {
  if ('cidrs' in trust) return `client addresses: X-Forwarded-For trusted from proxies in ${trust.cidrs.map((c) => c.text).join(', ')}`
  if (trust.hops === 0) return 'client addresses: the connecting address (X-Forwarded-For ignored)'
  const proxies = trust.hops === 1 ? '1 proxy' : `${trust.hops} proxies`
  return `client addresses: X-Forwarded-For trusted from ${proxies} when the connection comes from a loopback, private or link-local address`
}
