import * as z from 'zod'
import { webUrl } from '../../net/web-url'

export const GIT_PROVIDERS = ['github', 'gitlab'] as const
export type GitProvider = (typeof GIT_PROVIDERS)[number]

export const connectGitBody = z.object({
  provider: z.enum(GIT_PROVIDERS),
  repo_url: z.string().trim().min(1).max(500),
  access_token: z.string().trim().min(1).max(500),
  auto_create_issues: z.boolean().optional(),
})
export type ConnectGitBody = z.infer<typeof connectGitBody>

export const updateGitBody = z.object({ auto_create_issues: z.boolean().optional(), access_token: z.string().trim().min(1).max(500).optional() })

export const searchIssuesQuery = z.object({ q: z.string().trim().max(256).optional() })

/** Empty (or a title) files a new issue; `issue_number` links an existing one, its URL and title looked up when not given. */
export const reportIssueBody = z
  .object({
    title: z.string().trim().min(1).max(256).optional(),
    issue_number: z.number().int().positive().optional(),
    issue_url: webUrl(1000).optional(),
    issue_title: z.string().trim().min(1).max(500).optional(),
  })
  .optional()
export type ReportIssueBody = z.infer<typeof reportIssueBody>
