import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { createAlert, deleteAlert, listAlerts, updateAlert } from './alerts.service'
import { createSavedFilter, createSavedView, deleteSavedFilter, deleteSavedView, listSavedFilters, listSavedViews, updateSavedView } from './saved-views.service'
import { readSla, replaceSla } from './sla.service'
import { alertBody, savedFilterBody, savedListQuery, savedViewBody, slaBody, updateAlertBody, updateSavedViewBody } from './workflow.schemas'

const tags = ['Report workflow']

/** Spec 4.12: SLA rules, alert rules, and each user's own saved filters and views. */
export const workflowSettingsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/sla', ({ project }) => readSla(deps, project.id), { project: 'bugs.view', detail: { tags, summary: 'SLA rules' } })
    .put('/projects/:slug/sla', ({ project, user, body }) => replaceSla(deps, { project, userId: user.id }, body.rules), {
      project: 'project.settings',
      body: slaBody,
      detail: { tags, summary: 'Replace every SLA rule (one per priority, hours > 0)' },
    })
    .get('/projects/:slug/alerts', ({ project }) => listAlerts(deps, project.id), { project: 'bugs.view', detail: { tags, summary: 'Alert rules with their last evaluation and firing' } })
    .post(
      '/projects/:slug/alerts',
      ({ project, user, body, set }) => {
        set.status = 201
        return createAlert(deps, { project, userId: user.id }, body)
      },
      { project: 'project.settings', body: alertBody, detail: { tags, summary: 'Create an alert rule (new_reports, new_crash_reports, crash_rate, negative_sentiment, escalating_reports: how many reports are escalating)' } },
    )
    .patch('/projects/:slug/alerts/:ruleId', ({ project, user, params, body }) => updateAlert(deps, { project, userId: user.id }, params.ruleId, body), {
      project: 'project.settings',
      body: updateAlertBody,
      detail: { tags, summary: 'Change threshold, window_hours or enabled' },
    })
    .delete(
      '/projects/:slug/alerts/:ruleId',
      async ({ project, user, params }) => {
        await deleteAlert(deps, { project, userId: user.id }, params.ruleId)
        return { message: 'Alert rule deleted' }
      },
      { project: 'project.settings', detail: { tags, summary: 'Delete an alert rule' } },
    )
    .get('/saved-filters', ({ user, query }) => listSavedFilters(deps, user.id, query.project_id), { auth: true, query: savedListQuery, detail: { tags, summary: 'Your saved filters' } })
    .post(
      '/saved-filters',
      ({ user, body, set }) => {
        set.status = 201
        return createSavedFilter(deps, user.id, body)
      },
      { auth: true, body: savedFilterBody, detail: { tags, summary: 'Save a filter of a project you can read' } },
    )
    .delete(
      '/saved-filters/:filterId',
      async ({ user, params }) => {
        await deleteSavedFilter(deps, user.id, params.filterId)
        return { message: 'Saved filter deleted' }
      },
      { auth: true, detail: { tags, summary: 'Delete one of your saved filters' } },
    )
    .get('/saved-views', ({ user, query }) => listSavedViews(deps, user.id, query.project_id), { auth: true, query: savedListQuery, detail: { tags, summary: 'Your saved views, by position' } })
    .post(
      '/saved-views',
      ({ user, body, set }) => {
        set.status = 201
        return createSavedView(deps, user.id, body)
      },
      { auth: true, body: savedViewBody, detail: { tags, summary: 'Save a view of a project you can read' } },
    )
    .patch('/saved-views/:viewId', ({ user, params, body }) => updateSavedView(deps, user.id, params.viewId, body), {
      auth: true,
      body: updateSavedViewBody,
      detail: { tags, summary: 'Change a view; position reorders your views without gaps' },
    })
    .delete(
      '/saved-views/:viewId',
      async ({ user, params }) => {
        await deleteSavedView(deps, user.id, params.viewId)
        return { message: 'Saved view deleted' }
      },
      { auth: true, detail: { tags, summary: 'Delete one of your saved views' } },
    )
