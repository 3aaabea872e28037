import type { Config } from '../config/config'

/** The one error type services throw; the root handler turns it into `{ok:false, error}` with its status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields answered beside `error` in the envelope (e.g. `merged_into` of a redirect). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }

  /** The message as this server answers it; a subclass may word it by the configuration (plans/PlanLimitError). */
  messageFor(_config: Pick<Config, 'stripeSecretKey'>): string {
    return this.message
  }
}

export const badRequest = (message: string) => new AppError(400, message)
export const unauthorized = (message = 'authentication required') => new AppError(401, message)
export const forbidden = (message = 'you do not have permission to do that') => new AppError(403, message)
export const notFound = (message = 'not found') => new AppError(404, message)
export const conflict = (message: string) => new AppError(409, message)
export const payloadTooLarge = (message: string) => new AppError(413, message)
/** What a body past `limit` bytes is told (`what`: which part of it). */
export const tooLargeMessage = (limit: number, what = 'request body') => `${what} too large (max ${Math.round(limit / 1024 / 1024)} MB)`
/** A body past its route's limit: 400, the spec's answer to an oversized upload (Sentry's routes answer `payloadTooLarge`, their protocol's 413). */
export const bodyTooLarge = (limit: number, what?: string) => badRequest(tooLargeMessage(limit, what))
export const badGateway = (message: string) => new AppError(502, message)

interface Issue {
  /** An array from zod itself; a string (`a.b` or `/a/b`) in Elysia's standard-schema `ValidationError.all`. */
  path?: readonly PropertyKey[] | string
  code?: string
  message: string
  input?: unknown
}

/** One sentence from validation issues, naming the fields: "title and description are required". */
export function describeIssues(issues: readonly Issue[]): string {
  // Keys and messages can carry the caller's input (a 100 KB key, an unrecognised key's name): each
  // part is cut short, so an error never echoes a huge body back.
  const name = (i: Issue) =>
    clip((typeof i.path === 'string' ? i.path.replace(/^\//, '').split('/') : (i.path ?? []).slice(0, 8).map(String)).map((k) => clip(k, 40)).join('.'), 120) || 'body'
  // Elysia's issues carry no `code`, so a missing field is recognised by zod's message alone.
  const isMissing = (i: Issue) => (i.code === undefined || i.code === 'invalid_type') && /received undefined/.test(i.message)
  const missing = issues.filter(isMissing).map(name)
  const others = issues.filter((i) => !isMissing(i))
  const parts: string[] = []
  if (missing.length) {
    const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`
    parts.push(`${list} ${missing.length === 1 ? 'is' : 'are'} required`)
  }
  for (const i of others.slice(0, 3)) parts.push(`${name(i)}: ${clip(i.message.replace(/^Invalid input: /, ''), 160)}`)
  return clip(parts.join('; '), 600) || 'invalid request'
}

/** `text` up to `max` characters, marked with an ellipsis when cut. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
