import * as z from 'zod'

/** Statuses an operation may answer with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 429 | 502 | 503

/** What the OpenAPI document says about one operation's responses; see `operationDocs` in ./index. */
export interface OperationDoc {
  /** Status of the success answer (default 200). */
  status?: 200 | 201
  /** Shape of `data` in `{ok: true, data}`. */
  data: z.ZodType
  /** What the success means, when the summary does not say it. */
  description?: string
  /**
   * A second answer outside the error envelope: another success with the same `data` shape (the SDK submit
   * answers 200 when stacked), or with a shape of its own (`/health`'s 503).
   */
  alsoStatus?: { status: 200 | 201 | 503; description: string; data?: z.ZodType }
  /** Error statuses beyond those derived from the route's credential, parameters and body. */
  errors?: ErrorStatus[]
  /** Answers that are not the JSON envelope: a CSV file, a stored file, plain JSON (health) or plain text. */
  content?: 'csv' | 'file' | 'plain-json' | 'text'
  /** Errors in an outside protocol's own shape (`sentry`: `{"detail": …}`) rather than the error envelope. */
  errorFormat?: 'sentry'
  /** The request body by media type, for routes that read it with their own parser (no body schema to generate from). */
  requestBody?: Record<string, z.ZodType>
  /** Example of the success `data`. */
  example?: unknown
  /** When the operation may answer 308 (a moved resource): what it means. `Location` names where it went. */
  redirect?: string
}

export type OperationDocs = Record<string, OperationDoc>

export const isoDate = z.iso.datetime().describe('ISO 8601 date-time')
export const uuid = z.string().describe('UUID')
/** A calendar day, a period of days, and a map by any string key: the analytics answers' shared pieces. */
export const day = z.string().describe('YYYY-MM-DD (UTC)')
export const period = { days: z.number().int(), from: day, to: day }
export const byKey = <T extends z.ZodType>(v: T) => z.record(z.string(), v)

/** `{message}`: the answer of actions that return nothing else. */
export const MessageResponse = z.object({ message: z.string() })
export const CreatedIdResponse = z.object({ id: uuid })

/** `{ok: false, error}`: every error answer. */
export const ErrorEnvelope = z.object({ ok: z.literal(false), error: z.string().describe('A sentence for people; never echoes large input') })

export type MessageResponse = z.output<typeof MessageResponse>
export type CreatedIdResponse = z.output<typeof CreatedIdResponse>
export type ErrorEnvelope = z.output<typeof ErrorEnvelope>
/** What every JSON route answers: `{ok: true, data}` or the error envelope. */
export type Envelope<T> = { ok: true; data: T } | ErrorEnvelope
