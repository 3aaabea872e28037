/**
 * Classifies IP addresses as publicly routable or not, for the SSRF guard. Addresses are
 * compared as 16-byte IPv6 values; IPv4 is looked up as its IPv4-mapped form (::ffff:a.b.c.d).
 */

type Bytes = Uint8Array

/** Parses dotted-quad IPv4 (strict: four decimal parts 0–255 of 1–3 digits) into 4 bytes, or null. Read by hand: every request's client address comes through here. */
function parseIpv4(text: string): Bytes | null {
  const out = new Uint8Array(4)
  let part = 0
  let value = 0
  let digits = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46 // the end closes the last part like a '.'
    if (c >= 48 && c <= 57) {
      if (++digits > 3) return null
      value = value * 10 + (c - 48)
      continue
    }
    if (c !== 46 || digits === 0 || value > 255 || part > 3) return null
    out[part++] = value
    value = 0
    digits = 0
  }
  return part === 4 ? out : null
}

/** Parses IPv6 (with `::` and an optional trailing dotted IPv4, zone id dropped) into 16 bytes, or null. */
function parseIpv6(text: string): Bytes | null {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const words: number[] = []
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s)
  let tailWords: number[] = []
  if (tail) {
    const v4 = parseIpv4(tail[1]!)
    if (!v4) return null
    tailWords = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!]
    s = s.slice(0, -tail[1]!.length)
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1)
  }
  const halves = s.split('::')
  if (halves.length > 2) return null
  const parse = (h: string) => (h === '' ? [] : h.split(':'))
  const head = parse(halves[0]!)
  const rest = halves.length === 2 ? parse(halves[1]!) : []
  for (const w of [...head, ...rest]) if (!/^[0-9a-f]{1,4}$/i.test(w)) return null
  const given = head.length + rest.length + tailWords.length
  if (halves.length === 1 ? given !== 8 : given > 7) return null
  words.push(...head.map((w) => parseInt(w, 16)))
  if (halves.length === 2) words.push(...new Array(8 - given).fill(0))
  words.push(...rest.map((w) => parseInt(w, 16)), ...tailWords)
  const out = new Uint8Array(16)
  words.forEach((w, i) => {
    out[i * 2] = w >> 8
    out[i * 2 + 1] = w & 0xff
  })
  return out
}

/** IPv4's IPv4-mapped IPv6 form (::ffff:a.b.c.d). */
function mapped(v4: Bytes): Bytes {
  const out = new Uint8Array(16)
  out[10] = 0xff
  out[11] = 0xff
  out.set(v4, 12)
  return out
}

/** An IP literal (v4 or v6, brackets allowed) as 16 bytes, or null when it is not an IP. */
export function parseIp(text: string): Bytes | null {
  const v4 = parseIpv4(text)
  return v4 ? mapped(v4) : text.includes(':') ? parseIpv6(text) : null
}

interface Range {
  bytes: Bytes
  bits: number
}

function range(cidr: string): Range {
  const [addr, len] = cidr.split('/') as [string, string]
  const v4 = parseIpv4(addr)
  return v4 ? { bytes: mapped(v4), bits: 96 + Number(len) } : { bytes: parseIpv6(addr)!, bits: Number(len) }
}

function inRange(ip: Bytes, r: Range): boolean {
  const full = r.bits >> 3
  for (let i = 0; i < full; i++) if (ip[i] !== r.bytes[i]) return false
  const rem = r.bits & 7
  if (rem === 0) return true
  const mask = (0xff << (8 - rem)) & 0xff
  return (ip[full]! & mask) === (r.bytes[full]! & mask)
}

/**
 * Inside the ranges that can be public (IPv4, and IPv6 global unicast 2000::/3), what is not
 * reachable on the public internet or is reserved for special use (RFC 6890 and successors).
 */
const BLOCKED = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, including cloud metadata 169.254.169.254
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved and broadcast
  '2001::/23', // IETF protocol assignments, including Teredo 2001::/32 (its embedded client address is obfuscated: refused whole)
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
].map(range)

/**
 * IPv6 outside 2000::/3 is never public unicast: unique local (fc00::/7, AWS metadata fd00:ec2::254),
 * link-local, site-local, multicast, discard 100::/64, local-use NAT64 64:ff9b:1::/48, the
 * IPv4-translated ::ffff:0:0:0/96 of RFC 2765 (`[::ffff:0:127.0.0.1]`, refused whatever it embeds)
 * and the rest of ::/8. Only the forms below that embed an IPv4 address are looked at further.
 */
const GLOBAL_UNICAST = range('2000::/3')
const V4_MAPPED = range('::ffff:0:0/96')

/**
 * Prefixes that carry an IPv4 address in their last 32 bits, which then decides: IPv4-compatible
 * `::/96` (also covering the unspecified `::` and loopback `::1`, which embed 0.0.0.0 and 0.0.0.1)
 * and NAT64 `64:ff9b::/96`.
 */
const EMBEDS_V4 = ['::/96', '64:ff9b::/96'].map(range)
/** 6to4: the IPv4 address sits in bits 16-47. */
const SIX_TO_FOUR = range('2002::/16')

/** Whether `ip` (16 bytes from parseIp) is a public unicast address that outgoing calls may reach. */
export function isPublicIp(ip: Bytes): boolean {
  if (EMBEDS_V4.some((r) => inRange(ip, r))) return isPublicIp(mapped(ip.slice(12)))
  if (inRange(ip, SIX_TO_FOUR)) return isPublicIp(mapped(ip.slice(2, 6)))
  // IPv4 is stored mapped, so the IPv4 ranges above apply to it as they are.
  if (!inRange(ip, V4_MAPPED) && !inRange(ip, GLOBAL_UNICAST)) return false
  return !BLOCKED.some((r) => inRange(ip, r))
}

/**
 * The client an address stands for in per-client limits (rate budgets, vote caps): an IPv4 address
 * is one client, while an IPv6 client is handed a whole /64 and can pick any address in it, so its
 * /64 is the client. As text: `addr:<ip>` or `net:<first 8 bytes in hex>`.
 */
export function clientGroupOf(ip: string): string {
  // Dotted IPv4 (every request's address behind an IPv4 proxy) is one client as it is.
  if (parseIpv4(ip)) return `addr:${ip}`
  const bytes = parseIp(ip)
  return bytes !== null && !inRange(bytes, V4_MAPPED) ? `net:${Buffer.from(bytes.subarray(0, 8)).toString('hex')}` : `addr:${ip}`
}
