import type { Server } from 'bun'

/**
 * The client address used for rate limits and anonymous votes. Behind a trusted proxy it is the
 * left-most `X-Forwarded-For` entry; otherwise the socket peer (absent for in-process requests).
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')
    const first = forwarded?.split(',')[0]?.trim()
    if (first) return first
  }
  return server?.requestIP(request)?.address ?? '127.0.0.1'
}
