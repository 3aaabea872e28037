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

export const updateProjectBody = z.object({
  name: projectName.optional(),
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
