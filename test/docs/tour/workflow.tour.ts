import type { Tour } from './tour.types'

/** Dependencies, due dates, custom fields, templates, satisfaction, imports, SLA, alerts, saved filters and views. */
export const workflowTour: Tour = {
  'POST /api/projects/{slug}/bugs/{number}/dependencies': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/bugs`, { token: w.owner.token, body: { title: 'Asteroid collision mesh is too small', description: 'The mesh is half the size of the model' } })
      w.v.number2 = String(res.body.data.report_number)
      w.v.id2 = res.body.data.id
    },
    body: (w) => ({ related_number: Number(w.v.number2), relationship: 'blocked_by' }),
    keep: (d, w) => (w.v.depId = d.id),
  },
  'GET /api/projects/{slug}/bugs/{number}/dependencies': {},
  'DELETE /api/projects/{slug}/dependencies/{depId}': {},
  'PATCH /api/projects/{slug}/bugs/{number}/due-date': { body: () => ({ due_date: '2027-03-01' }) },
  'POST /api/projects/{slug}/custom-fields': { body: () => ({ name: 'Build', field_type: 'select', options: ['alpha', 'beta'] }), keep: (d, w) => (w.v.fieldId = d.id) },
  'GET /api/projects/{slug}/custom-fields': {},
  'POST /api/projects/{slug}/bugs/{number}/custom-fields': { body: (w) => ({ field_id: w.v.fieldId, value: 'beta' }) },
  'GET /api/projects/{slug}/bugs/{number}/custom-fields': {},
  'DELETE /api/projects/{slug}/custom-fields/{fieldId}': {},
  'POST /api/projects/{slug}/templates': { body: () => ({ name: 'Crash', priority: 'high', category: 'crash', body_template: 'What happened:\n\nSteps:' }), keep: (d, w) => (w.v.templateId = d.id) },
  'GET /api/projects/{slug}/templates': {},
  'PATCH /api/projects/{slug}/templates/{templateId}': { body: () => ({ description: 'For crashes and freezes' }) },
  'DELETE /api/projects/{slug}/templates/{templateId}': {},
  'POST /api/projects/{slug}/bugs/{number}/satisfaction': { body: () => ({ rating: 4, comment: 'Fixed quickly' }) },
  'GET /api/projects/{slug}/bugs/{number}/satisfaction': {},
  'POST /api/projects/{slug}/import': { body: () => ({ bugs: [{ title: 'Imported: audio pops on pause', description: 'From the old tracker', external_id: 'OLD-7', priority: 'low' }] }) },
  'GET /api/projects/{slug}/imports': {},
  'PUT /api/projects/{slug}/sla': { body: () => ({ rules: [{ priority: 'critical', response_hours: 4, resolve_hours: 48 }] }) },
  'GET /api/projects/{slug}/sla': {},
  'POST /api/projects/{slug}/alerts': { body: () => ({ metric: 'new_crash_reports', threshold: 5, window_hours: 24 }), keep: (d, w) => (w.v.ruleId = d.id) },
  'GET /api/projects/{slug}/alerts': {},
  'PATCH /api/projects/{slug}/alerts/{ruleId}': { body: () => ({ threshold: 10, enabled: false }) },
  'DELETE /api/projects/{slug}/alerts/{ruleId}': {},
  'POST /api/saved-filters': { body: (w) => ({ name: 'Open crashes', project_id: w.v.projectId, filters: { status: 'open', category: 'crash' } }), keep: (d, w) => (w.v.filterId = d.id) },
  'GET /api/saved-filters': { query: (w) => ({ project_id: w.v.projectId! }) },
  'DELETE /api/saved-filters/{filterId}': {},
  'POST /api/saved-views': { body: (w) => ({ name: 'Triage', project_id: w.v.projectId, filters: { status: 'open' }, sort_by: 'priority', pinned: true }), keep: (d, w) => (w.v.viewId = d.id) },
  'GET /api/saved-views': { query: (w) => ({ project_id: w.v.projectId! }) },
  'PATCH /api/saved-views/{viewId}': { body: () => ({ name: 'Morning triage', position: 1 }) },
  'DELETE /api/saved-views/{viewId}': {},
}
