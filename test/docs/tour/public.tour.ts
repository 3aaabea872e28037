import type { Tour } from './tour.types'

/** Routes anyone may call, before anything else changes the server. */
export const publicTour: Tour = {
  'GET /health': { as: 'anonymous' },
  'GET /api/maintenance/active': { as: 'anonymous' },
  'GET /api/server-info': { as: 'anonymous' },
}
