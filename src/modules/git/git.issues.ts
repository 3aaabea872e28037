import type { AppDeps } from '../../app-deps'
import type { EventSubscriber } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { PROVIDER_TIMEOUT_MS } from '../integrations/providers/provider-http'
import { ProviderError } from '../integrations/providers/provider.types'
import { liveReportByNumber } from '../reports/project-reports'
import { createProjectsRepository } from '../projects/projects.repository'
import { reportPageUrl } from '../reports/report-links'
import { createReportsRepository } from '../reports/reports.repository'
import type { Report } from '../reports/reports.service'
import { createIssue, getIssue } from './git.client'
import type { ReportIssueBody } from './git.schemas'
import { autoIssuesOn, createGitRepository, type GitConnection, type GitIssueLink as Link } from './git.repository'
import { asGateway, connectionOf, repoOf } from './git.service'

export const FILE_KIND = 'git.file_issue'
/** The first try and the retries after 1, 5, 25 and 125 minutes (spec 4.7). */
const FILE_ATTEMPTS = 5

/** A link as the API shows it. */
function view(l: Link) {
  return { provider: l.provider, issue_number: l.issueNumber, issue_url: l.issueUrl, issue_title: l.issueTitle, created_by_glitchbox: l.created, created_at: l.createdAt.toISOString() }
}

const git = (deps: Pick<AppDeps, 'db'>) => createGitRepository({ db: deps.db })

/** The issue body: the report's fields as Markdown and a link back to the report. */
export function issueBody(report: Report, publicUrl: string, slug: string): string {
  const facts: [string, string][] = [
    ['Priority', report.priority],
    ['Category', report.category],
    ['Status', report.status],
    ['Platform', report.platform],
    ['Game version', report.gameVersion],
    ['OS', report.osInfo],
    ['Device', report.deviceInfo],
    ['Error type', report.errorType],
    ['Occurrences', String(report.occurrenceCount)],
  ]
  const sections: [string, string][] = [
    ['Steps to reproduce', report.stepsToReproduce],
    ['Expected behaviour', report.expectedBehavior],
    ['Actual behaviour', report.actualBehavior],
  ]
  return [
    report.description,
    '',
    '| Field | Value |',
    '|---|---|',
    ...facts.filter(([, v]) => v).map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`),
    ...sections.filter(([, v]) => v).flatMap(([k, v]) => ['', `### ${k}`, v]),
    '',
    `[Glitchbox report #${report.reportNumber}](${reportPageUrl(publicUrl, slug, report.reportNumber)})`,
  ].join('\n')
}

/** Links the report to the issue unless it is linked already; the report's link either way. */
function saveLink(deps: Pick<AppDeps, 'db'>, report: Report, c: GitConnection, issue: { issue_number: number; issue_url: string; issue_title: string }, created: boolean, actorId: string | null, now: Date): Promise<Link> {
  return git(deps).saveLink({ id: newId(), reportId: report.id, projectId: report.projectId, provider: c.provider, issueNumber: issue.issue_number, issueUrl: issue.issue_url, issueTitle: issue.issue_title, created, createdBy: actorId, createdAt: now })
}

/**
 * The repository issue linked to a report (`issue: null` when none) and the project's repository
 * (`repository: null` when none is connected), so the report page needs no request that answers 404.
 */
export async function reportIssue(deps: Pick<AppDeps, 'db'>, projectId: string, number: string) {
  const report = await deps.db.read((q) => liveReportByNumber(q, projectId, number))
  const [l, c] = await Promise.all([git(deps).linkOf(report.id), git(deps).connectionOf(projectId)])
  return { repository: c ? { provider: c.provider, repo_url: c.repoUrl, repo_path: c.repoPath } : null, issue: l ? view(l) : null }
}

/**
 * Files the report as a new issue (empty body, or a `title`), or links an existing one by
 * `issue_number` (URL and title looked up unless given); status 201 with the new link. A report
 * already linked answers its link with 200; linking it to another issue is a 409. 502 with the
 * provider's words when it refuses.
 */
export async function fileReportIssue(deps: AppDeps, project: { id: string; slug: string }, actorId: string, number: string, body: ReportIssueBody) {
  const report = await deps.db.read((q) => liveReportByNumber(q, project.id, number))
  const existing = await git(deps).linkOf(report.id)
  if (existing && body?.issue_number !== undefined && body.issue_number !== existing.issueNumber) {
    throw conflict(`report #${report.reportNumber} is already linked to issue #${existing.issueNumber}; unlink it first`)
  }
  if (existing) return { status: 200 as const, link: view(existing) }
  const c = await connectionOf(deps, project.id)
  const { repo, token } = await repoOf(deps, c)
  let issue: { issue_number: number; issue_url: string; issue_title: string }
  let created: boolean
  if (body?.issue_number !== undefined) {
    created = false
    issue =
      body.issue_url && body.issue_title
        ? { issue_number: body.issue_number, issue_url: body.issue_url, issue_title: body.issue_title }
        : await asGateway(() => getIssue(deps, repo, token, body.issue_number!))
  } else {
    created = true
    issue = await asGateway(() => createIssue(deps, repo, token, { title: body?.title ?? report.title, body: issueBody(report, deps.config.publicUrl, project.slug) }))
  }
  const link = await saveLink(deps, report, c, issue, created, actorId, deps.clock.now())
  return { status: 201 as const, link: view(link) }
}

/** Removes a report's issue link (the issue itself stays in the repository). */
export async function unlinkReportIssue(deps: Pick<AppDeps, 'db'>, projectId: string, number: string) {
  const report = await deps.db.read((q) => liveReportByNumber(q, projectId, number))
  if (!(await git(deps).removeLink(report.id))) throw notFound('this report is not linked to an issue')
  return { message: 'Issue unlinked' }
}

/** On `bug_created`, queues filing an issue when the project's repository has auto_create_issues on. */
export function autoIssueSubscriber(deps: Pick<AppDeps, 'db' | 'jobs'>): EventSubscriber {
  return async (tx, event) => {
    if (event.type !== 'bug_created' || !(await autoIssuesOn(deps.db, event.projectId))) return
    await deps.jobs.enqueue(tx, { kind: FILE_KIND, payload: { reportId: event.reportId }, idempotencyKey: `${FILE_KIND}:${event.reportId}`, maxAttempts: FILE_ATTEMPTS })
  }
}

/** The `git.file_issue` job: files one report as an issue unless it is linked already; a refusal is retried after 1, 5, 25, 125 minutes. */
export function fileIssueHandler(deps: AppDeps): JobHandler<{ reportId: string }> {
  return {
    kind: FILE_KIND,
    maxAttempts: FILE_ATTEMPTS,
    timeoutMs: PROVIDER_TIMEOUT_MS + 2_000,
    async run({ reportId }, ctx) {
      const report = await createReportsRepository({ db: deps.db }).liveById(reportId)
      if (!report || (await git(deps).linkOf(report.id))) return
      const c = await git(deps).connectionOf(report.projectId)
      // Disconnected, or automatic issues turned off, since the report came in.
      if (!c || !c.autoCreateIssues) return
      const slug = (await createProjectsRepository({ db: deps.db }).slugOf(report.projectId))!
      let issue: Awaited<ReturnType<typeof createIssue>>
      try {
        const { repo, token } = await repoOf(deps, c)
        issue = await createIssue(deps, repo, token, { title: report.title, body: issueBody(report, deps.config.publicUrl, slug) }, ctx.signal)
      } catch (err) {
        // Kept on the connection, so the settings screen says why no issue appeared; the runner retries.
        const message = ProviderError.from(err).message
        await git(deps).setAutoError(c.id, { autoErrorMessage: message, autoErrorReportNumber: report.reportNumber, autoErrorAt: deps.clock.now() })
        throw err
      }
      await deps.db.write(async () => {
        await saveLink(deps, report, c, issue, true, null, deps.clock.now())
        await git(deps).clearAutoError(c.id)
      })
    },
  }
}
