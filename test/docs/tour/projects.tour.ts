import type { Tour } from './tour.types'

/** The owner's project (seeded) and a second one that is deleted at the end. */
export const projectsTour: Tour = {
  'GET /api/projects': {},
  'POST /api/projects': { body: () => ({ name: 'Side Quest', description: 'A smaller game', website_url: 'https://sidequest.example' }), keep: (d, w) => (w.v.slug2 = d.slug) },
  'GET /api/projects/{slug}': {},
  'PATCH /api/projects/{slug}': { body: () => ({ description: 'Drift between comets', screenshot_capture: true }) },
  'GET /api/projects/{slug}/setup-status': {},
  'POST /api/projects/{slug}/send-test-report': {},
  'GET /api/projects/{slug}/activity': { query: () => ({ page: '1' }) },
  'GET /api/projects/{slug}/audit-log': {},
}
