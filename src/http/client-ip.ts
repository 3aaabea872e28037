import type { Server } from 'bun'
import { parseIp } from '../net/ip-ranges'

/**
 * Which `X-Forwarded-For` entries the server believes (`GLITCHBOX_TRUST_PROXY`): none (the socket
 * peer is the client), a number of proxy hops, or the networks of trusted proxies.
 */
export type TrustProxy = { hops: number } | { cidrs: readonly Cidr[] }

export interface Cidr {
  /** 16 bytes: IPv4 as its IPv4-mapped IPv6 form, as `parseIp` gives it. */
  bytes: Uint8Array
  bits: number
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
  return { bytes, bits: isV4 ? 96 + len : len }
}

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
 * N-th from the right (the left-most present when fewer arrived); with trusted networks the first
 * entry from the right, past the socket peer, that is not a trusted proxy. The left-most entry is
 * whatever the client wrote and is never taken on its own word.
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trust: TrustProxy): string {
  if ('hops' in trust) {
    if (trust.hops === 0) return peerOf(request, server)
    const forwarded = request.headers.get('x-forwarded-for')
    if (!forwarded) return peerOf(request, server)
    // The common case, one proxy: the text after the last comma, without splitting the header.
    if (trust.hops === 1) return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() || peerOf(request, server)
    const entries = forwarded.split(',')
    const at = Math.max(0, entries.length - trust.hops)
    return entries[at]!.trim() || peerOf(request, server)
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
