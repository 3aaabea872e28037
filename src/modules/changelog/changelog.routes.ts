import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { createEntryBody, updateEntryBody } from './changelog.schemas'
import { allEntries, autoGenerate, createEntry, deleteEntry, publishedEntries, updateEntry } from './changelog.service'

const tags = ['Changelog']
const security = [{ session: [] }]

/**
 * The public read shares `/projects/:slug/changelog` with the team's POST; only the POST carries
 * the session guard (the macro is per route), so the GET stays open.
 */
export const changelogRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/changelog', ({ params }) => publishedEntries(deps, params.slug), {
      detail: { tags, summary: 'Up to 50 published entries, newest first (public, no credential)' },
    })
    // Drafts are unreleased news (versions, features, dates): read by those who write the changelog.
    .get('/projects/:slug/changelog/all', ({ project }) => allEntries(deps, project.id), {
      project: 'project.settings',
      detail: { tags, summary: 'Every entry, drafts included (needs project.settings)', security },
    })
    .post(
      '/projects/:slug/changelog',
      async ({ project, user, body, set }) => {
        const created = await createEntry(deps, project, user.id, body)
        set.status = 201
        return created
      },
      { project: 'project.settings', body: createEntryBody, detail: { tags, summary: 'Add an entry (a draft unless publish is true)', security } },
    )
    .post(
      '/projects/:slug/changelog/auto-generate',
      async ({ project, user, set }) => {
        const entry = await autoGenerate(deps, project, user.id)
        set.status = 201
        return entry
      },
      { project: 'project.settings', detail: { tags, summary: 'Draft an entry listing reports resolved since the last published entry', security } },
    )
    .patch('/projects/:slug/changelog/:entryId', ({ project, user, params, body }) => updateEntry(deps, project, user.id, params.entryId, body), {
      project: 'project.settings',
      body: updateEntryBody,
      detail: { tags, summary: 'Change an entry; publish true publishes it, false takes it back to draft', security },
    })
    .delete(
      '/projects/:slug/changelog/:entryId',
      async ({ project, user, params }) => {
        await deleteEntry(deps, project, user.id, params.entryId)
        return { message: 'Changelog entry deleted' }
      },
      { project: 'project.settings', detail: { tags, summary: 'Delete an entry', security } },
    )
