import * as z from 'zod'

const page = z.coerce.number().int().min(1).max(100_000).default(1)
/** `days`: 1 to 90 UTC days ending today, default 30. */
const days = z.coerce.number().int().min(1).max(90).default(30)

export const daysQuery = z.object({ days })
const environment = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe("Count only the sessions of this environment (`production`, `staging`; sessions that name none count as `production`); absent: every environment. Report and event counts are of every environment.")
/** `?environment=` of release health and the bad-deploy verdict. */
export const environmentQuery = z.object({ environment })
export const versionQuery = z.object({ version: z.string().min(1).max(100), days, environment })
export const crashGroupsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), version: z.string().min(1).max(100).optional() })
export const logStackQuery = z.object({
  days: z.coerce
    .number()
    .default(7)
    .refine((d) => [1, 7, 30, 90].includes(d), 'must be 1, 7, 30 or 90'),
  page,
})
export const pageQuery = z.object({ page })
export const playersQuery = z.object({ page, q: z.string().max(200).optional() })
export const regressionsQuery = z.object({ status: z.enum(['confirmed', 'dismissed']).optional() })

export const regressionBody = z.object({
  original_bug_id: z.string().min(1).max(100),
  new_bug_id: z.string().min(1).max(100),
  status: z.enum(['confirmed', 'dismissed']),
  resolved_version: z.string().max(100).optional(),
  regressed_version: z.string().max(100).optional(),
})

export const playerPatchBody = z
  .object({ notes: z.string().max(10_000).optional(), sentiment: z.enum(['positive', 'neutral', 'negative']).nullable().optional() })
  .refine((b) => b.notes !== undefined || b.sentiment !== undefined, 'notes or sentiment is required')
