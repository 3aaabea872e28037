import type { Tour } from './tour.types'

/** Release notes: written, published, listed publicly, generated from resolved reports, edited and removed. */
export const changelogTour: Tour = {
  'POST /api/projects/{slug}/changelog': { body: () => ({ title: 'Patch 1.4.3', version: '1.4.3', body: '## Fixed\n- The ship no longer clips through the asteroid', publish: true }), keep: (d, w) => (w.v.entryId = d.id) },
  'GET /api/projects/{slug}/changelog': { as: 'anonymous' },
  'GET /api/projects/{slug}/changelog/all': {},
  'POST /api/projects/{slug}/changelog/auto-generate': {
    // A report resolved after the last entry (an hour later on the test clock) is what a new entry lists.
    before: async (w) => {
      w.t.clock.advance(3_600_000)
      await w.t.request('PATCH', `/api/projects/${w.v.slug}/bugs/${w.v.number2}`, { token: w.owner.token, body: { status: 'resolved' } })
    },
  },
  'PATCH /api/projects/{slug}/changelog/{entryId}': { body: () => ({ title: 'Patch 1.4.3: physics fixes' }) },
  'DELETE /api/projects/{slug}/changelog/{entryId}': {},
}
