import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { badRequest } from '../../http/errors'
import { labelExists } from '../labels/labels.service'
import { requireFeature } from '../auth/plans'
import { brandingPatch, roadmapSettingsPatch, trackerSettingsPatch, widgetSettingsPatch } from './settings.schemas'
import { settingsOf, updateSettings, widgetSettingsOf } from './settings.service'
import type { SettingsKind } from './settings.table'
import { storeWidgetBackground } from './widget.service'

const tags = ['Public page settings']

/**
 * GET (members) and PUT (`project.settings`, partial body) for one settings kind at `/projects/:slug/<path>`;
 * `check` refuses a body that names something the project does not have.
 */
function settingsPair(
  deps: AppDeps,
  kind: Exclude<SettingsKind, 'widget'>,
  path: string,
  body: z.ZodType<Record<string, unknown>>,
  name: string,
  check: (projectId: string, body: Record<string, unknown>) => void | Promise<void> = () => {},
) {
  return new Elysia()
    .use(authPlugin(deps))
    .get(`/projects/:slug/${path}`, ({ project }) => settingsOf(deps.db, project.id, kind), {
      project: true,
      detail: { tags, summary: `The project's ${name}`, security: [{ session: [] }] },
    })
    .put(
      `/projects/:slug/${path}`,
      async ({ project, user, body }) => {
        await check(project.id, body)
        return updateSettings(deps, kind, { project, actorId: user.id, patch: body })
      },
      {
        project: 'project.settings',
        body,
        detail: { tags, summary: `Change the ${name} (fields not sent keep their value)`, security: [{ session: [] }] },
      },
    )
}

/** A roadmap driven by a label must name one of the project's labels. */
const roadmapLabelExists = (deps: AppDeps) => async (projectId: string, body: Record<string, unknown>) => {
  if (typeof body.label_id === 'string' && body.label_id !== '' && !(await labelExists(deps, projectId, body.label_id))) throw badRequest('label_id: no such label in this project')
}

export const settingsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .use(settingsPair(deps, 'tracker', 'tracker-settings', trackerSettingsPatch, 'public tracker settings'))
    .use(settingsPair(deps, 'roadmap', 'roadmap-settings', roadmapSettingsPatch, 'public roadmap settings', roadmapLabelExists(deps)))
    .use(settingsPair(deps, 'branding', 'branding', brandingPatch, 'branding'))
    .get('/projects/:slug/widget-settings', ({ project, account }) => widgetSettingsOf(deps.db, project.id, account.plan), {
      project: true,
      detail: { tags, summary: 'The in-game widget look (the default theme on the free plan)', security: [{ session: [] }] },
    })
    .put(
      '/projects/:slug/widget-settings',
      ({ project, account, user, body }) => {
        requireFeature(account.plan, 'widget_themes')
        return updateSettings(deps, 'widget', { project, actorId: user.id, patch: body })
      },
      {
        project: 'project.settings',
        body: widgetSettingsPatch,
        detail: { tags, summary: 'Change the in-game widget look (tier 2 and up)', security: [{ session: [] }] },
      },
    )
    .post(
      '/projects/:slug/widget-settings/background',
      async ({ project, account, user, body, set }) => {
        const result = await storeWidgetBackground(deps, { project, plan: account.plan, actorId: user.id, file: body.file })
        set.status = 201
        return result
      },
      {
        project: 'project.settings',
        body: z.object({ file: z.file() }),
        detail: { tags, summary: 'Upload the widget background image (multipart field file; image, max 5 MB; tier 2 and up)', security: [{ session: [] }] },
      },
    )
