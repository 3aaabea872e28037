import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'

/** A project's repository on GitHub (or GitHub Enterprise) or GitLab (or a self-hosted GitLab); one per project. */
export const gitConnections = sqliteTable(
  'git_connections',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['github', 'gitlab'] }).notNull(),
    /** The repository's web URL as given (normalised: no trailing slash or `.git`). */
    repoUrl: text('repo_url').notNull(),
    /** `owner/name` (GitHub) or `group/subgroup/name` (GitLab). */
    repoPath: text('repo_path').notNull(),
    /** Access token: AES-256-GCM under `secrets.key` (integrations/credentials.crypto.ts), never returned. */
    tokenEnc: text('token_enc').notNull(),
    tokenHint: text('token_hint').notNull(),
    autoCreateIssues: bool('auto_create_issues').notNull().default(false),
    /** The last failed attempt of an automatic issue (cleared by the next success), so the team sees why none appeared. */
    autoErrorMessage: text('auto_error_message'),
    autoErrorReportNumber: integer('auto_error_report_number'),
    autoErrorAt: timestamp('auto_error_at'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('git_connections_project_unique').on(t.projectId)],
)

/** The repository issue a report is linked to (filed by us or linked by hand); one per report. */
export const gitIssueLinks = sqliteTable(
  'git_issue_links',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['github', 'gitlab'] }).notNull(),
    issueNumber: integer('issue_number').notNull(),
    issueUrl: text('issue_url').notNull(),
    issueTitle: text('issue_title').notNull(),
    /** True when Glitchbox filed the issue, false when a person linked an existing one. */
    created: bool('created').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('git_issue_links_report_unique').on(t.reportId), index('git_issue_links_project_idx').on(t.projectId)],
)
