import type { TourWorld } from './tour-world'

/** Who sends a step's request. */
export type Caller =
  /** The studio-plan owner's session (the default). */
  | 'owner'
  /** The project's SDK key in `X-API-Key`. */
  | 'sdk'
  /** No credential. */
  | 'anonymous'
  /** The session of the player-facing account signed up during the tour (`w.v.userToken`). */
  | 'user'
  /** The paying account's owner (billing routes, against the fake Stripe). */
  | 'payer'

/**
 * One request of the tour, for the operation its key names (`METHOD /path/{param}` as in /openapi.json).
 * Path parameters come from `w.v`; every function receives the tour's world as it is when the step runs.
 */
export interface TourStep {
  as?: Caller
  /** A session token to send instead of the caller's (another member of the team). */
  token?: (w: TourWorld) => string
  /** Path parameters of this step only, over `w.v`. */
  params?: (w: TourWorld) => Record<string, string>
  query?: (w: TourWorld) => Record<string, string>
  /** A JSON value, FormData, or `{ raw, type }` for a body sent as it is. */
  body?: (w: TourWorld) => unknown
  headers?: (w: TourWorld) => Record<string, string>
  /** The expected status; default: the operation's first documented success. */
  status?: number
  /** Runs before the request: state the answer depends on (a job drained, a row the API cannot make). */
  before?: (w: TourWorld) => unknown
  /** Reads values for later steps from the answer (`data` of the envelope, else the whole body). */
  keep?: (data: any, w: TourWorld) => void
}

/** Steps keyed by operation; the tour runs them in this order. */
export type Tour = Record<string, TourStep>

/** A raw body and its content type, sent as they are. */
export const raw = (text: string, type: string) => ({ raw: text, type })
