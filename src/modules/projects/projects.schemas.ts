import * as z from 'zod'
import { webUrl as storedUrl } from '../../net/web-url'

/** An http(s) URL, or empty to clear it. */
const webUrl = storedUrl(500, { empty: true })

const projectName = z.string().trim().min(1, 'must not be empty').max(150)
const description = z.string().trim().max(2000)

export const createProjectBody = z.object({
  name: projectName,
  slug: z.string().trim().max(60).optional(),
  description: description.optional(),
  website_url: webUrl.optional(),
})
export type CreateProjectBody = z.infer<typeof createProjectBody>

/** Path segments of the dashboard's own project routes: no project may be called that. */
const RESERVED_SLUGS = ['new']

/** A slug as a person types it: trimmed and lower-cased, then letters, digits and inner hyphens only. */
export const projectSlug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/, 'use 1 to 60 lower-case letters, digits and hyphens (not first or last)')
  .refine((s) => !RESERVED_SLUGS.includes(s), 'this slug is reserved')

export const updateProjectBody = z.object({
  name: projectName.optional(),
  slug: projectSlug.optional().describe('The slug in every URL of the project, as given when free on this server; the old one redirects for 90 days'),
  description: description.optional(),
  website_url: webUrl.optional(),
  logo_url: webUrl.optional(),
  is_public: z.boolean().optional(),
  screenshot_capture: z.boolean().optional(),
  session_capture: z.boolean().optional(),
  auto_file_errors: z.boolean().optional(),
  capture_editor_errors: z.boolean().optional(),
  capture_warnings: z.boolean().optional(),
  bug_grouping: z.boolean().optional(),
})
export type UpdateProjectBody = z.infer<typeof updateProjectBody>

/** Days the old SDK key keeps working after a rotation: none, 1, 7 or 30. */
export const GRACE_DAYS = [0, 1, 7, 30] as const
export type GraceDays = (typeof GRACE_DAYS)[number]

export const rotateKeyBody = z
  .object({
    grace_days: z
      .literal(GRACE_DAYS)
      .default(0)
      .describe('Days the old key keeps working (shipped builds cannot all be updated at once): 0 (stops at once, the default), 1, 7 or 30'),
  })
  .optional()

export const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) })

export const activityQuery = pageQuery.extend({ action: z.string().trim().max(50).optional() })
