import type { Tour } from './tour.types'

/** Comments, labels and attachments on the tour's report. */
export const commentsLabelsTour: Tour = {
  'POST /api/projects/{slug}/bugs/{number}/comments': { body: () => ({ body: 'Reproduced on 1.4.2', is_internal: true }) },
  'GET /api/projects/{slug}/bugs/{number}/comments': {},
  'POST /api/projects/{slug}/labels': { body: () => ({ name: 'physics', color: '#2E5BFF' }), keep: (d, w) => (w.v.labelId = d.id) },
  'GET /api/projects/{slug}/labels': {},
  'PATCH /api/projects/{slug}/labels/{labelId}': { body: () => ({ name: 'collision' }) },
  'POST /api/projects/{slug}/bugs/{number}/labels': { body: (w) => ({ label_id: w.v.labelId }) },
  'DELETE /api/projects/{slug}/bugs/{number}/labels/{labelId}': {},
  'DELETE /api/projects/{slug}/labels/{labelId}': {},
  'POST /api/projects/{slug}/bugs/{number}/attachments': {
    body: () => {
      const form = new FormData()
      form.set('file', new File(['[12:01:03] physics: step skipped\n'], 'physics.log', { type: 'text/plain' }))
      return form
    },
  },
  'GET /api/projects/{slug}/bugs/{number}/attachments': {},
}
