import type { Tour } from './tour.types'

/** Reports filed by the team, listed, searched, changed and (one of them) deleted. */
export const reportsTour: Tour = {
  'POST /api/projects/{slug}/bugs': {
    body: () => ({ title: 'Ship clips through the asteroid', description: 'At full speed the ship passes through the big asteroid', priority: 'high', category: 'gameplay', platform: 'windows', game_version: '1.4.2' }),
    keep: (d, w) => {
      w.v.number = String(d.report_number)
      w.v.id = d.id
    },
  },
  'GET /api/projects/{slug}/bugs': { query: () => ({ q: 'asteroid version:1.4.2', platform: 'windows', sort: 'newest', page: '1' }) },
  'GET /api/projects/{slug}/bugs/facets': {},
  'GET /api/projects/{slug}/bugs/similar': { query: () => ({ title: 'Ship passes through asteroid' }) },
  'GET /api/projects/{slug}/bugs/export': { query: () => ({ status: 'open' }) },
  'GET /api/projects/{slug}/error-types': {},
  'GET /api/projects/{slug}/bugs/{number}': {},
  'PATCH /api/projects/{slug}/bugs/{number}': { body: (w) => ({ status: 'in_progress', assigned_to: w.owner.user.id }) },
  'GET /api/projects/{slug}/bugs/{number}/activity': {},
  'PATCH /api/projects/{slug}/bugs/bulk': { body: (w) => ({ bug_numbers: [Number(w.v.number)], priority: 'critical' }) },
  'DELETE /api/projects/{slug}/bugs/bulk': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/bugs`, { token: w.owner.token, body: { title: 'Duplicate of the asteroid clip', description: 'Filed twice' } })
      w.v.duplicateId = res.body.data.id
    },
    body: (w) => ({ bug_ids: [w.v.duplicateId] }),
  },
  'DELETE /api/projects/{slug}/bugs/{number}': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/bugs`, { token: w.owner.token, body: { title: 'Filed by mistake', description: 'Not a bug' } })
      w.v.mistake = String(res.body.data.report_number)
    },
    params: (w) => ({ number: w.v.mistake! }),
  },
}
