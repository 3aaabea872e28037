import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'

export const GitConnection = z.object({
  id: z.string(),
  provider: z.enum(['github', 'gitlab']),
  repo_url: z.string().describe('Normalised web URL of the repository'),
  repo_path: z.string().describe('owner/name (GitHub) or group/…/name (GitLab)'),
  auto_create_issues: z.boolean().describe('Every new report files an issue (through the job table, retried)'),
  last_auto_issue_error: z
    .object({ message: z.string().describe("The provider's refusal or the network error"), report_number: z.number().int().nullable(), at: isoDate.nullable() })
    .nullable()
    .describe('The last failed attempt to file an issue automatically (each is retried after 1, 5, 25 and 125 minutes); null once one succeeds'),
  token_hint: z.string().describe('… and the last four characters; the token is stored encrypted and never returned'),
  created_at: isoDate,
  updated_at: isoDate,
})
export const GitIssue = z.object({ issue_number: z.number().int().describe('GitLab: the issue iid'), issue_url: z.string(), issue_title: z.string(), state: z.string() })
export const GitIssueSearchResponse = z.array(GitIssue)
export const GitIssueLink = z.object({
  provider: z.enum(['github', 'gitlab']),
  issue_number: z.number().int(),
  issue_url: z.string(),
  issue_title: z.string(),
  created_by_glitchbox: z.boolean().describe('True when Glitchbox filed the issue, false when an existing one was linked'),
  created_at: isoDate,
})
export const GitReportIssueResponse = z.object({
  issue: GitIssueLink.nullable(),
  repository: z.object({ provider: z.enum(['github', 'gitlab']), repo_url: z.string() }).nullable().describe("The project's connected repository, where an issue can be filed; null when none is connected"),
})

export type GitConnection = z.output<typeof GitConnection>
export type GitIssue = z.output<typeof GitIssue>
export type GitIssueSearchResponse = z.output<typeof GitIssueSearchResponse>
export type GitIssueLink = z.output<typeof GitIssueLink>
export type GitReportIssueResponse = z.output<typeof GitReportIssueResponse>

export const gitDocs: OperationDocs = {
  'GET /api/projects/{slug}/git': { data: GitConnection, description: '404 when no repository is connected' },
  'POST /api/projects/{slug}/git': { status: 201, data: GitConnection, errors: [409, 502], description: "Connected; 502 with the provider's answer when it refuses the token or the repository" },
  'PATCH /api/projects/{slug}/git': { data: GitConnection, errors: [502] },
  'DELETE /api/projects/{slug}/git': { data: MessageResponse },
  'GET /api/projects/{slug}/git/issues': { data: GitIssueSearchResponse, errors: [502] },
  'GET /api/projects/{slug}/bugs/{number}/issue': { data: GitReportIssueResponse },
  'POST /api/projects/{slug}/bugs/{number}/issue': {
    status: 201,
    data: GitIssueLink,
    alsoStatus: { status: 200, description: 'The report was linked already: its link, unchanged' },
    errors: [409, 502],
    description: "Filed or linked; 502 with the provider's answer when it refuses",
  },
  'DELETE /api/projects/{slug}/bugs/{number}/issue': { data: MessageResponse },
}
