import type { Config } from '../../config/config'
import { AppError } from '../../http/errors'

/** The hosted plans in tier order, then `self_hosted`: every feature, no limit (the default without billing). */
export const PLAN_KEYS = ['free', 'pro', 'studio', 'self_hosted'] as const
export type PlanKey = (typeof PLAN_KEYS)[number]

const MB = 1024 * 1024
const GB = 1024 * MB

/** Features gated by plan, with the lowest tier that carries each. */
export const FEATURE_TIERS = {
  events: 2,
  crash_groups: 2,
  triage: 2,
  churn_risk: 2,
  log_stack: 2,
  widget_themes: 2,
  jira: 2,
  session_capture: 3,
  session_replays: 3,
} as const
export type Feature = keyof typeof FEATURE_TIERS

/** Each limit, or null for none. */
export interface PlanLimits {
  projects: number | null
  /** Reports created over the account's lifetime (deleted ones keep counting). */
  reports: number | null
  uploadBytes: number | null
  seats: number | null
}

export interface Plan {
  key: PlanKey
  name: string
  tier: 1 | 2 | 3
  limits: PlanLimits
}

/** Every plan's limits, in one place; `/api/billing/subscription` and `/api/account` report them. */
export const PLANS = {
  free: { key: 'free', name: 'Free', tier: 1, limits: { projects: 2, reports: 1_000, uploadBytes: 1 * GB, seats: 3 } },
  pro: { key: 'pro', name: 'Pro', tier: 2, limits: { projects: 10, reports: 50_000, uploadBytes: 25 * GB, seats: 15 } },
  studio: { key: 'studio', name: 'Studio', tier: 3, limits: { projects: 100, reports: 1_000_000, uploadBytes: 250 * GB, seats: 100 } },
  // A studio's own server: its players' reports must never be refused by a quota.
  self_hosted: { key: 'self_hosted', name: 'Self-hosted', tier: 3, limits: { projects: null, reports: null, uploadBytes: null, seats: null } },
} satisfies Record<PlanKey, Plan>

/** The hosted plan of a given tier (the one to upgrade to). */
export const planOfTier = (tier: number): Plan => [PLANS.free, PLANS.pro, PLANS.studio].find((p) => p.tier === tier) ?? PLANS.studio

/** True when `used` goes past `limit`; a null limit never is. */
export const exceeds = (used: number, limit: number | null): boolean => limit !== null && used > limit

/** Billing is configured when Stripe has a secret key; without it plans are set by the operator. */
export const billingConfigured = (config: Pick<Config, 'stripeSecretKey'>): boolean => Boolean(config.stripeSecretKey)

/**
 * A plan-limit 403 (limit reached or feature missing) that says how to lift it: the upgrade route when
 * billing is configured, else the operator's `admin set-plan` command. Without billing plans are no
 * concept of the product a team sees, so the reason names no plan there (`wording(false)`: "this
 * account allows 2 projects"; `wording(true)`: "the Free plan allows 2 projects"). The wording
 * depends on the server's configuration, so the HTTP pipeline asks `messageFor(config)`; `message`
 * is the wording without billing (what a CLI shows).
 */
export class PlanLimitError extends AppError {
  /** The reason naming the plan, for logs. */
  readonly reason: string

  constructor(
    readonly wording: (plans: boolean) => string,
    /** What lifting it allows, e.g. "file more". */
    readonly toDo: string,
  ) {
    super(403, planLimitMessage(wording(false), toDo, false))
    this.reason = wording(true)
  }

  override messageFor(config: Pick<Config, 'stripeSecretKey'>): string {
    const billing = billingConfigured(config)
    return planLimitMessage(this.wording(billing), this.toDo, billing)
  }
}

/** Who a limit belongs to in a plan-limit reason: "the Free plan" with billing, "this account" without. */
export const limitOwner = (plan: Plan, plans: boolean): string => (plans ? `the ${plan.name} plan` : 'this account')

function planLimitMessage(reason: string, toDo: string, billing: boolean): string {
  return billing
    ? `${reason}; to ${toDo}, upgrade the plan with POST /api/billing/create-checkout`
    : `${reason}; to ${toDo}, the server's operator runs \`glitchbox admin set-plan EMAIL PLAN\` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)`
}

/** A plan's limits as the API shows them, keyed like the usage they cap. */
export function limitsView(plan: PlanKey) {
  const { projects, reports, uploadBytes, seats } = PLANS[plan].limits
  return { projects, reports, upload_bytes: uploadBytes, seats }
}

/** Feature map of a plan: feature → available. */
export function featuresOf(plan: PlanKey): Record<Feature, boolean> {
  const tier = PLANS[plan].tier
  return Object.fromEntries(Object.entries(FEATURE_TIERS).map(([f, t]) => [f, tier >= t])) as Record<Feature, boolean>
}

const FEATURE_NAMES: Record<Feature, string> = {
  events: 'telemetry events',
  crash_groups: 'crash groups',
  triage: 'triage suggestions',
  churn_risk: 'churn risk',
  log_stack: 'the log stack',
  widget_themes: 'widget themes',
  jira: 'the Jira integration',
  session_capture: 'session capture',
  session_replays: 'session replays',
}

/** Throws 403 when `plan` lacks `feature`, naming the plan that carries it when billing is configured. */
export function requireFeature(plan: PlanKey, feature: Feature): void {
  if (PLANS[plan].tier >= FEATURE_TIERS[feature]) return
  const needed = planOfTier(FEATURE_TIERS[feature])
  const name = FEATURE_NAMES[feature]
  throw new PlanLimitError((plans) => (plans ? `the ${needed.name} plan or higher is needed for ${name} (this account is on ${PLANS[plan].name})` : `this account does not have ${name}`), `use ${name}`)
}
