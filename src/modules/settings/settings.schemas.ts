import * as z from 'zod'
import { webUrl } from '../../net/web-url'
import { PUBLISH_MODES } from '../reports/report-publication'
import { STATUSES } from '../reports/reports.types'
import { customCssProblem } from './custom-css'

const MAX_CSS_BYTES = 20 * 1024

const color = z.string().regex(/^(?:#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}))?$/, 'must be a #RRGGBB or #RGB color, or empty')
const solidColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a #RRGGBB or #RGB color')

const url = webUrl(2048, { empty: true })
const email = z.string().max(254).refine((v) => v === '' || z.email().safeParse(v).success, 'must be a valid email address or empty')

// The tracker page embeds custom_css in a <style> element: only the safe subset of custom-css.ts is stored.
const customCss = z
  .string()
  .refine((v) => Buffer.byteLength(v) <= MAX_CSS_BYTES, { message: 'must be at most 20 KB', abort: true })
  .superRefine((v, ctx) => {
    const problem = customCssProblem(v)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .describe(
    'CSS for the public tracker page (max 20 KB). Allowed: rules and @media, @supports, @keyframes, @font-face, @layer, @container, @page. ' +
      'Refused with 400: @import and other at-rules, url() other than data:image (png, jpeg, gif, webp), image(), image-set(), src(), ' +
      'expression(), javascript:, behavior, -moz-binding, and markup (<tag, </, <!).',
  )

export const trackerSettingsSchema = z.object({
  enabled: z.boolean(),
  page_title: z.string().max(200),
  page_description: z.string().max(5000),
  accent_color: color,
  logo_url: url,
  allow_search: z.boolean(),
  allow_upvotes: z.boolean(),
  show_categories: z.boolean(),
  show_priority: z.boolean(),
  show_status_filter: z.boolean(),
  custom_css: customCss,
  publish: z
    .enum(PUBLISH_MODES)
    .describe(
      'Which reports the public pages show: all (every report not private), triaged (reports a team member touched: status changed, ' +
        'labelled, commented publicly or published) or manual (only reports published one by one). A report published explicitly ' +
        '(`published: true`) is shown whatever the mode; one unpublished (`published: false`) never is.',
    ),
  include_auto_filed: z
    .boolean()
    .describe("Also show auto-filed reports (an SDK's automatic capture, a Sentry event, or a description with a `--- Stack Trace ---` section) under the mode; off: they stay team-only unless published explicitly"),
})

/** Where the roadmap's reports come from: the team's choice (flag or label), or everything published. */
export const ROADMAP_SOURCES = ['curated', 'published'] as const

export const roadmapSettingsSchema = z.object({
  enabled: z.boolean(),
  title: z.string().max(200),
  description: z.string().max(5000),
  statuses: z.array(z.enum(STATUSES)).min(1).max(STATUSES.length),
  show_upvotes: z.boolean(),
  label_id: z
    .string()
    .max(100)
    .describe("With `source` curated. Empty: the roadmap shows the reports put on it (a report's `on_roadmap`). A label id of the project: it shows the reports carrying that label instead"),
  source: z
    .enum(ROADMAP_SOURCES)
    .describe(
      '`curated` (the default): the reports the team puts on the roadmap, by `on_roadmap` or by the label `label_id` names. `published`: every report the public tracker publishes (its `publish` mode and auto-filed rule), in the shown statuses; `label_id` is then unused',
    ),
})

export const brandingSchema = z.object({
  company_name: z.string().max(200),
  logo_url: url,
  primary_color: color,
  accent_color: color,
  support_email: email,
})

export const widgetThemeSchema = z.object({
  primary_color: solidColor,
  background_color: solidColor,
  text_color: solidColor,
  position: z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left']),
  mode: z.enum(['light', 'dark']),
})

export const widgetSettingsSchema = z.object({
  theme: widgetThemeSchema,
  button_text: z.string().max(50),
  background_image_url: url,
})

export const trackerSettingsPatch = trackerSettingsSchema.partial()
export const roadmapSettingsPatch = roadmapSettingsSchema.partial()
export const brandingPatch = brandingSchema.partial()
export const widgetSettingsPatch = widgetSettingsSchema.extend({ theme: widgetThemeSchema.partial() }).partial()

export type TrackerSettings = z.infer<typeof trackerSettingsSchema>
export type RoadmapSettings = z.infer<typeof roadmapSettingsSchema>
export type Branding = z.infer<typeof brandingSchema>
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>
export type WidgetSettingsPatch = z.infer<typeof widgetSettingsPatch>
