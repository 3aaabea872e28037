import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { listAuditLog, listProjectActivity } from './project-activity'
import { hasPermission } from '../permissions/permissions.catalog'
import { sendTestReport, setupStatus } from './project-setup.service'
import { activityQuery, createProjectBody, pageQuery, rotateKeyBody, updateProjectBody } from '../projects/projects.schemas'
import { createProject, rotateApiKey, updateProject } from '../projects/projects.service'
import { deleteProject, listProjects, projectDetail } from './project-admin.service'

const tags = ['Projects']

/** Spec 4.2: the dashboard's projects (list, create, detail, settings, key rotation, deletion), their setup checklist and activity. */
export const projectAdminRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects', ({ user }) => listProjects(deps, user), {
      auth: true,
      detail: { tags, summary: 'Projects of the account you work in, with bug counts' },
    })
    .post(
      '/projects',
      async ({ user, body, set }) => {
        const created = await createProject(deps, user, body)
        set.status = 201
        return created
      },
      { auth: true, body: createProjectBody, detail: { tags, summary: 'Create a project' } },
    )
    .get('/projects/:slug', ({ project, membership }) => projectDetail(deps.db, project, membership, { publicUrl: deps.config.publicUrl, now: deps.clock.now() }), {
      project: true,
      detail: { tags, summary: 'Project with settings, SDK settings, API key, stats and your role' },
    })
    .patch(
      '/projects/:slug',
      async ({ project, account, user, body }) => ({ message: 'Project updated', ...(await updateProject(deps, { project, account, userId: user.id }, body)) }),
      {
        project: 'project.settings',
        body: updateProjectBody,
        detail: { tags, summary: 'Update project settings, the slug included (its old URLs redirect for 90 days); answers the slug' },
      },
    )
    .delete(
      '/projects/:slug',
      async ({ project, membership, user }) => {
        await deleteProject(deps, { project, membership, userId: user.id })
        return { message: 'Project deleted' }
      },
      { project: true, detail: { tags, summary: 'Delete a project with its reports and files (owner or creator)' } },
    )
    .post('/projects/:slug/rotate-key', ({ project, user, body }) => rotateApiKey(deps, { project, userId: user.id, graceDays: body?.grace_days ?? 0 }), {
      project: 'project.settings',
      body: rotateKeyBody,
      detail: { tags, summary: 'Replace the SDK key; the old one stops at once, or after the grace period chosen (1, 7 or 30 days)' },
    })
    .get('/projects/:slug/setup-status', ({ project }) => setupStatus(deps, project), {
      project: true,
      detail: { tags, summary: 'Whether the SDK (or a Sentry SDK) has sent its first report and session, and SDK requests refused by the rate limit in the last hour' },
    })
    .post(
      '/projects/:slug/send-test-report',
      async ({ project, user, set }) => {
        const report = await sendTestReport(deps, project, user.id)
        set.status = 201
        return report
      },
      { project: 'bugs.create', detail: { tags, summary: 'File a sample report' } },
    )
    .get(
      '/projects/:slug/activity',
      ({ project, membership, query }) =>
        listProjectActivity(deps.db, project.id, { ...query, canReadReports: hasPermission(membership.role, membership.permissionOverrides, 'bugs.view') }),
      {
        project: true,
        query: activityQuery,
        detail: { tags, summary: 'Recent activity across the project, newest first (50 a page); report entries need bugs.view' },
      },
    )
    .get('/projects/:slug/audit-log', ({ project, query }) => listAuditLog(deps.db, project, query.page), {
      project: 'project.settings',
      query: pageQuery,
      detail: { tags, summary: 'Audit log of settings, label, member and integration changes' },
    })
