import type { AppDeps } from '../../app-deps'
import type { DbOrTx, Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import { recordAudit } from '../activity/activity.service'
import { type PlanKey, PLANS, FEATURE_TIERS } from '../auth/plans'
import type { Branding, RoadmapSettings, TrackerSettings, WidgetSettings } from './settings.schemas'
import { createSettingsRepository } from './settings.repository'
import type { SettingsKind } from './settings.table'

interface SettingsMap {
  tracker: TrackerSettings
  roadmap: RoadmapSettings
  branding: Branding
  widget: WidgetSettings
}

/** What each kind reads as before anything is stored: public pages disabled, texts empty. */
export const SETTINGS_DEFAULTS: { [K in SettingsKind]: SettingsMap[K] } = {
  tracker: {
    enabled: false,
    page_title: '',
    page_description: '',
    accent_color: '',
    logo_url: '',
    allow_search: false,
    allow_upvotes: false,
    show_categories: false,
    show_priority: false,
    show_status_filter: false,
    custom_css: '',
    // New projects show only what the team has looked at; projects from before these settings were
    // given `all` and `include_auto_filed` by migration (public/publication.backfill.ts).
    publish: 'triaged',
    include_auto_filed: false,
  },
  roadmap: { enabled: false, title: '', description: '', statuses: ['open', 'in_progress', 'resolved'], show_upvotes: false, label_id: '', source: 'curated' },
  branding: { company_name: '', logo_url: '', primary_color: '', accent_color: '', support_email: '' },
  widget: {
    theme: { primary_color: '#2E5BFF', background_color: '#FFFFFF', text_color: '#1A1A1A', position: 'bottom-right', mode: 'light' },
    button_text: 'Report a bug',
    background_image_url: '',
  },
}

const AUDIT_ACTIONS: Record<SettingsKind, string> = {
  tracker: 'tracker_settings.updated',
  roadmap: 'roadmap_settings.updated',
  branding: 'branding.updated',
  widget: 'widget_settings.updated',
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `patch` without undefined values, one level of nesting deep (the widget theme); empty nested objects drop out. */
function definedFields(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue
    if (isPlainObject(v)) {
      const inner = definedFields(v)
      if (Object.keys(inner).length) out[k] = inner
    } else out[k] = v
  }
  return out
}

/** `base` with `patch` laid over it; nested objects (the widget theme) merge key by key. */
function merge<T>(base: T, patch: Record<string, unknown> | undefined): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) }
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (!(k in out)) continue
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? { ...out[k], ...v } : v
  }
  return out as T
}

/** The project's settings of `kind`: what is stored, over the defaults. */
export async function settingsOf<K extends SettingsKind>(db: Seam, projectId: string, kind: K): Promise<SettingsMap[K]> {
  return merge(SETTINGS_DEFAULTS[kind], await createSettingsRepository({ db }).stored(projectId, kind))
}

export interface SettingsUpdate {
  project: { id: string; accountId: string }
  actorId: string
  patch: Record<string, unknown>
}

/**
 * Merges the fields present in `patch` into the stored settings of `kind` and audits which fields
 * changed; 400 when the body carries no known field.
 */
export function updateSettings<K extends SettingsKind>(deps: Pick<AppDeps, 'db' | 'clock'>, kind: K, u: SettingsUpdate): Promise<SettingsMap[K]> {
  const now = deps.clock.now()
  return deps.db.write((tx) => updateSettingsIn(tx, now, kind, u))
}

/** `updateSettings` inside a write the caller holds (to charge quota in the same one). */
export async function updateSettingsIn<K extends SettingsKind>(tx: Seam & DbOrTx, now: Date, kind: K, u: SettingsUpdate): Promise<SettingsMap[K]> {
  const changes = definedFields(u.patch)
  if (Object.keys(changes).length === 0) throw badRequest('no valid fields to update')
  if (Array.isArray(changes.statuses)) changes.statuses = [...new Set(changes.statuses)]
  const next = merge(await settingsOf(tx, u.project.id, kind), changes)
  await createSettingsRepository({ db: tx }).store(u.project.id, kind, next as Record<string, unknown>, now)
  await recordAudit(tx, now, {
    accountId: u.project.accountId,
    projectId: u.project.id,
    actorId: u.actorId,
    action: AUDIT_ACTIONS[kind],
    details: { fields: Object.keys(changes) },
  })
  return next
}

/** Whether the plan has widget settings of its own (tier 2 and up); below, the defaults apply. */
const ownWidgetSettings = (plan: PlanKey) => PLANS[plan].tier >= FEATURE_TIERS.widget_themes

/** The widget settings in effect: the project's own on tier 2 and up, the defaults otherwise. */
export async function widgetSettingsOf(db: Seam, projectId: string, plan: PlanKey): Promise<WidgetSettings> {
  return ownWidgetSettings(plan) ? settingsOf(db, projectId, 'widget') : SETTINGS_DEFAULTS.widget
}

/**
 * The `widget_theme` game clients get from `GET /api/bugs/settings`: the effective theme colors,
 * position and mode, with the button text and background image alongside.
 */
export async function widgetThemeFor(db: Seam, projectId: string, plan: PlanKey) {
  const { theme, button_text, background_image_url } = await widgetSettingsOf(db, projectId, plan)
  return { ...theme, primary_color: await widgetPrimaryColor(db, projectId, theme.primary_color), button_text, background_image_url }
}

/**
 * The widget's button and accent color: the one chosen in the widget settings (tier 2 and up), else
 * the project's brand color (branding `primary_color`), so the widget matches the public pages out
 * of the box; else the default. Settings are stored whole, so "chosen" means "not the default".
 */
async function widgetPrimaryColor(db: Seam, projectId: string, effective: string): Promise<string> {
  if (effective.toLowerCase() !== SETTINGS_DEFAULTS.widget.theme.primary_color.toLowerCase()) return effective
  return (await settingsOf(db, projectId, 'branding')).primary_color || effective
}
