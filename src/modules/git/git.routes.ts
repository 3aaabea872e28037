import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { fileReportIssue, reportIssue, unlinkReportIssue } from './git.issues'
import { connectGitBody, reportIssueBody, searchIssuesQuery, updateGitBody } from './git.schemas'
import { connectGit, deleteGit, getGit, searchRepoIssues, updateGit } from './git.service'

const tags = ['Git']
const base = '/projects/:slug/git'
const issue = '/projects/:slug/bugs/:number/issue'

/** A project's GitHub or GitLab repository: connection, issue search, and the issue linked to each report. */
export const gitRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get(base, ({ project }) => getGit(deps, project.id), { project: true, detail: { tags, summary: 'The connected repository (404 when none); the token is never returned' } })
    .post(
      base,
      async ({ project, user, body, set }) => {
        const created = await connectGit(deps, project, user.id, body)
        set.status = 201
        return created
      },
      { project: 'project.integrations', body: connectGitBody, detail: { tags, summary: 'Connect a GitHub or GitLab repository; the token is checked against it (502 when refused)' } },
    )
    .patch(base, ({ project, user, body }) => updateGit(deps, project, user.id, body), {
      project: 'project.integrations',
      body: updateGitBody,
      detail: { tags, summary: 'Turn automatic issues on or off, or replace the access token' },
    })
    .delete(base, ({ project, user }) => deleteGit(deps, project, user.id), { project: 'project.integrations', detail: { tags, summary: 'Disconnect the repository' } })
    .get(`${base}/issues`, ({ project, query }) => searchRepoIssues(deps, project.id, query.q), {
      // The repository may be private: its issues are for those who may read reports.
      project: 'bugs.view',
      query: searchIssuesQuery,
      detail: { tags, summary: "Search the repository's issues (q; up to 20, most recently updated first)" },
    })
    .get(issue, ({ project, params }) => reportIssue(deps, project.id, params.number), { project: 'bugs.view', detail: { tags, summary: 'The repository issue linked to a report, and the repository (null when none is connected)' } })
    .post(
      issue,
      async ({ project, user, params, body, set }) => {
        const { status, link } = await fileReportIssue(deps, project, user.id, params.number, body)
        set.status = status
        return link
      },
      {
        project: 'bugs.edit',
        body: reportIssueBody,
        detail: { tags, summary: 'File the report as a repository issue, or link an existing one by issue_number' },
      },
    )
    .delete(issue, ({ project, params }) => unlinkReportIssue(deps, project.id, params.number), { project: 'bugs.edit', detail: { tags, summary: "Remove a report's issue link" } })
