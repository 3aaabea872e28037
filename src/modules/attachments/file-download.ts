import { AppError, notFound } from '../../http/errors'
import type { FileStorage } from '../../files/storage'
import type { Seam } from '../../db/client'

const baseType = (mime: string) => mime.split(';')[0]!.trim().toLowerCase()

/** Types a browser shows without running anything; every other type is served as a download. */
export function isInlineSafe(mime: string): boolean {
  const m = baseType(mime)
  if (m === 'image/svg+xml') return false
  return m.startsWith('image/') || m.startsWith('video/') || m === 'text/plain' || m === 'application/json'
}

/**
 * The Content-Type a stored file is served with. A declared text type is the client's word, and with
 * a script, style or XSL type a page that slipped in `<script src="/api/files/…">` (or a stylesheet,
 * or an XSLT processing instruction) would run it on this origin, CSP or not: text is served as plain
 * text, which nosniff keeps browsers from running. Types outside the upload kinds (an SVG, anything
 * older rows hold) are served as bytes.
 */
export function servedType(mime: string): string {
  const m = baseType(mime)
  if (m.startsWith('text/')) return 'text/plain; charset=utf-8'
  if (isInlineSafe(m)) return m
  return 'application/octet-stream'
}

/**
 * The byte range a `Range` header asks for within `size` bytes: `{start, end}` (inclusive),
 * null to serve the whole file (no header, another unit, several ranges or bad syntax),
 * or 'unsatisfiable'.
 */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

function contentDisposition(mime: string, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${isInlineSafe(mime) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * The stored file under `key` as a raw response, honouring a single `Range` and `If-None-Match`.
 * The bytes always pass through this server, streamed (from a bucket, with the Range sent on as an
 * object range request): a presigned redirect would skip the access rules of withdrawn files and
 * these headers, and expose the bucket's address.
 */
export async function downloadFile(db: Seam, files: FileStorage, key: string, headers: Headers): Promise<Response> {
  const found = await files.open(db, key)
  if (!found) throw notFound('file not found')
  const { meta, body } = found
  // The row's size: an S3 object's is not known without another request.
  const size = meta.size
  const etag = `"${meta.key}"`
  const common: Record<string, string> = {
    'content-type': servedType(meta.mimeType),
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': contentDisposition(meta.mimeType, meta.fileName),
    etag,
  }
  if (headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: common })
  const range = parseRange(headers.get('range'), size)
  if (range === 'unsatisfiable') throw new AppError(416, 'requested range not satisfiable', { 'content-range': `bytes */${size}` })
  if (!range) return new Response(body.stream(), { status: 200, headers: { ...common, 'content-length': String(size) } })
  return new Response(body.slice(range.start, range.end + 1).stream(), {
    status: 206,
    headers: { ...common, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${size}` },
  })
}
