import type { Tour } from './tour.types'

const GIF_TEXT = `GIF89a${'0'.repeat(64)}`

/** Public page, branding and widget settings, then the public tracker and roadmap a player sees. */
export const settingsTour: Tour = {
  'PUT /api/projects/{slug}/tracker-settings': {
    body: () => ({ enabled: true, page_title: 'Comet Drift known issues', allow_search: true, allow_upvotes: true, show_categories: true, show_status_filter: true, publish: 'all' }),
  },
  'GET /api/projects/{slug}/tracker-settings': {},
  'PUT /api/projects/{slug}/roadmap-settings': { body: () => ({ enabled: true, title: 'What we are fixing', statuses: ['open', 'in_progress', 'resolved'], show_upvotes: true }) },
  'GET /api/projects/{slug}/roadmap-settings': {},
  'PUT /api/projects/{slug}/branding': { body: () => ({ company_name: 'Comet Studio', primary_color: '#2E5BFF', support_email: 'support@comet.example' }) },
  'GET /api/projects/{slug}/branding': {},
  'PUT /api/projects/{slug}/widget-settings': { body: () => ({ theme: { primary_color: '#2E5BFF', position: 'bottom-left', mode: 'dark' }, button_text: 'Report a bug' }) },
  'GET /api/projects/{slug}/widget-settings': {},
  'POST /api/projects/{slug}/widget-settings/background': {
    body: () => {
      const form = new FormData()
      form.set('file', new File([GIF_TEXT], 'stars.gif', { type: 'image/gif' }))
      return form
    },
  },
  'GET /api/tracker/{slug}': { as: 'anonymous', query: () => ({ q: 'asteroid' }) },
  'GET /api/tracker/{slug}/bugs/{number}': { as: 'anonymous' },
  // Votes with no body at all: the voter is the client address.
  'POST /api/tracker/{slug}/bugs/{number}/vote': { as: 'anonymous' },
  // The report form's suggestions as a player types a title, on the tracker page and in the widget.
  'GET /api/tracker/{slug}/similar': { as: 'anonymous', query: () => ({ title: 'asteroid field flicker' }) },
  'GET /api/bugs/similar': { as: 'sdk', query: () => ({ title: 'asteroid field flicker' }) },
  'POST /api/bugs/vote': { as: 'sdk', body: (w) => ({ report_number: Number(w.v.number), player_id: 'player-9' }) },
  'GET /api/roadmap/{slug}': {
    as: 'anonymous',
    // The roadmap shows what the team puts on it.
    before: (w) => w.t.request('PATCH', `/api/projects/${w.v.slug}/bugs/${w.v.number2}`, { token: w.owner.token, body: { on_roadmap: true } }),
    query: () => ({ status: 'open', page: '1' }),
  },
  'POST /api/roadmap/{slug}/bugs/{number}/vote': { as: 'anonymous', params: (w) => ({ number: w.v.number2! }), body: () => ({ player_id: 'player-7' }) },
  'GET /api/branding/{slug}': { as: 'anonymous' },
}
