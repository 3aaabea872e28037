import * as z from 'zod'
import { brandingSchema, roadmapSettingsSchema, trackerSettingsSchema, widgetSettingsSchema } from '../../modules/settings/settings.schemas'
import type { OperationDocs } from './common'

// The stored settings are the module's own schemas in full (a PUT answers the merged result).
export const TrackerSettingsResponse = trackerSettingsSchema
export const RoadmapSettingsResponse = roadmapSettingsSchema
export const BrandingResponse = brandingSchema
export const WidgetSettingsResponse = widgetSettingsSchema
export const WidgetBackgroundResponse = z.object({ background_image_url: z.string() })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type TrackerSettingsResponse = z.output<typeof TrackerSettingsResponse>
export type RoadmapSettingsResponse = z.output<typeof RoadmapSettingsResponse>
export type BrandingResponse = z.output<typeof BrandingResponse>
export type WidgetSettingsResponse = z.output<typeof WidgetSettingsResponse>
export type WidgetBackgroundResponse = z.output<typeof WidgetBackgroundResponse>

export const settingsDocs: OperationDocs = {
  'GET /api/projects/{slug}/tracker-settings': { data: TrackerSettingsResponse },
  'PUT /api/projects/{slug}/tracker-settings': { data: TrackerSettingsResponse },
  'GET /api/projects/{slug}/roadmap-settings': { data: RoadmapSettingsResponse },
  'PUT /api/projects/{slug}/roadmap-settings': { data: RoadmapSettingsResponse },
  'GET /api/projects/{slug}/branding': { data: BrandingResponse },
  'PUT /api/projects/{slug}/branding': { data: BrandingResponse },
  'GET /api/projects/{slug}/widget-settings': { data: WidgetSettingsResponse },
  'PUT /api/projects/{slug}/widget-settings': { data: WidgetSettingsResponse },
  'POST /api/projects/{slug}/widget-settings/background': { status: 201, data: WidgetBackgroundResponse },
}
