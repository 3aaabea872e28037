import { forbidden } from '../../http/errors'

export const PLAN_KEYS = ['free', 'pro', 'studio'] as const
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

export interface PlanLimits {
  projects: number
  /** Reports created over the account's lifetime (deleted ones keep counting). */
  reports: number
  uploadBytes: number
  seats: number
}

export interface Plan {
  key: PlanKey
  name: string
  tier: 1 | 2 | 3
  limits: PlanLimits
}

/** Every plan's limits, in one place; `/api/billing/subscription` and `/api/account` report them. */
export const PLANS: Record<PlanKey, Plan> = {
  free: { key: 'free', name: 'Free', tier: 1, limits: { projects: 2, reports: 1_000, uploadBytes: 1 * GB, seats: 3 } },
  pro: { key: 'pro', name: 'Pro', tier: 2, limits: { projects: 10, reports: 50_000, uploadBytes: 25 * GB, seats: 15 } },
  studio: { key: 'studio', name: 'Studio', tier: 3, limits: { projects: 100, reports: 1_000_000, uploadBytes: 250 * GB, seats: 100 } },
}

/** The plan of a given tier. */
export const planOfTier = (tier: number): Plan => Object.values(PLANS).find((p) => p.tier === tier) ?? PLANS.studio

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

/** Throws 403 naming the plan that carries `feature` when `plan` lacks it. */
export function requireFeature(plan: PlanKey, feature: Feature): void {
  if (PLANS[plan].tier >= FEATURE_TIERS[feature]) return
  const needed = planOfTier(FEATURE_TIERS[feature])
  throw forbidden(`the ${needed.name} plan or higher is needed for ${FEATURE_NAMES[feature]} (this account is on ${PLANS[plan].name})`)
}
