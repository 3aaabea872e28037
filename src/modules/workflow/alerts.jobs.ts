import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { Schedule } from '../../jobs/jobs.types'
import { createAccountsRepository } from '../auth/accounts.repository'
import { recordActivity } from '../activity/activity.service'
import { mailEach } from '../notifications/notifications.fanout'
import { recipientsFor } from '../notifications/notifications.service'
import { escalatingReports, metricValue } from './alerts.service'
import { countNewReports } from './hourly-counts'
import { createAlertsRepository } from './alerts.repository'
import { reportListUrl } from '../reports/report-links'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>
const HOUR = 3600_000

/** One rule firing, as hooks see it. */
export interface AlertFiring {
  ruleId: string
  projectId: string
  metric: string
  value: number
  /** The sentence the mail and the activity entry carry. */
  text: string
}

/** Runs in the firing's transaction (so what it enqueues commits with it); integrations post firings to chat. */
export type AlertFiredHook = (tx: Query, firing: AlertFiring) => Promise<void>
// Per database, so apps built side by side in one process (tests) keep their hooks apart.
const firedHooks = new WeakMap<object, AlertFiredHook[]>()

/** Adds a hook called for every firing evaluated on `db`. */
export function onAlertFired(db: object, hook: AlertFiredHook): void {
  firedHooks.set(db, [...(firedHooks.get(db) ?? []), hook])
}

const METRIC_NAMES = {
  new_reports: 'new reports',
  new_crash_reports: 'new crash reports',
  crash_rate: 'crashed sessions per 100 sessions',
  negative_sentiment: 'negative reports',
  escalating_reports: 'escalating reports',
} as const

/** How many escalating reports a firing names: the chat message stays short. */
const NAMED_ESCALATING = 3

/** The firing's sentence for escalating reports: how many, and the newest few by number and title. */
async function escalatingText(deps: Deps, projectId: string, now: Date, threshold: number): Promise<string> {
  const escalating = await escalatingReports(deps, projectId, now)
  const named = escalating.slice(0, NAMED_ESCALATING).map((r) => `#${r.number} ${r.title}`).join('; ')
  const more = escalating.length > NAMED_ESCALATING ? ` and ${escalating.length - NAMED_ESCALATING} more` : ''
  return `${escalating.length} ${escalating.length === 1 ? 'report is' : 'reports are'} escalating (threshold ${threshold}): ${named}${more}`
}

/**
 * Brings the hourly report counts up to date, then evaluates every enabled rule: a rule whose value
 * reaches its threshold fires (an email to the project's owner and admins and an activity entry),
 * at most once per window. Returns the ids of the rules that fired.
 */
export async function evaluateAlerts(deps: Deps): Promise<string[]> {
  const now = deps.clock.now()
  await countNewReports(deps, now)
  const alerts = createAlertsRepository({ db: deps.db })
  const rules = await alerts.enabledRules()
  const fired: string[] = []
  for (const { rule, project } of rules) {
    const windowMs = rule.windowHours * HOUR
    const value = await metricValue(deps, rule.projectId, rule.metric, new Date(now.getTime() - windowMs), now)
    const fires = value >= rule.threshold && (!rule.lastFiredAt || rule.lastFiredAt.getTime() <= now.getTime() - windowMs)
    await deps.db.write(async (tx) => {
      await alerts.updateRule(rule.id, { lastEvaluatedAt: now, lastValue: value, ...(fires && { lastFiredAt: now }) })
      if (!fires) return
      const what = rule.metric === 'escalating_reports' ? await escalatingText(deps, rule.projectId, now, rule.threshold) : `${METRIC_NAMES[rule.metric]} reached ${value} in the last ${rule.windowHours} h (threshold ${rule.threshold})`
      await recordActivity(tx, now, [{ projectId: rule.projectId, actorId: null, action: 'alert_fired', field: rule.metric, newValue: what }])
      for (const hook of firedHooks.get(deps.db) ?? []) await hook(tx, { ruleId: rule.id, projectId: rule.projectId, metric: rule.metric, value, text: `In ${project.name}, ${what}.` })
      const admins = await createAccountsRepository({ db: deps.db }).managerIds(project.accountId)
      const to = await recipientsFor(deps, { accountId: project.accountId, projectId: rule.projectId, userIds: admins, preference: 'email_bug_created' })
      await mailEach(deps, tx, to, 'email_bug_created', () => ({
        subject: `[${project.name}] Alert: ${METRIC_NAMES[rule.metric]} at ${value}`,
        intro: `In ${project.name}, ${what}.`,
        body: [],
        link: { label: 'Open the reports', url: reportListUrl(deps.config.publicUrl, project.slug) },
      }))
    })
    if (fires) fired.push(rule.id)
  }
  return fired
}

export const alertsSchedule = (deps: Deps): Schedule => ({ name: 'workflow.alerts', pattern: '*/5 * * * *', run: async () => void (await evaluateAlerts(deps)), yieldsToRequests: true })
