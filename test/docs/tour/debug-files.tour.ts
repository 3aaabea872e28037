import type { Tour } from './tour.types'
import type { TourWorld } from './tour-world'

/** A Breakpad `.sym` small enough for one chunk (text: Prism forwards non-JSON bodies as UTF-8). */
const SYM = 'MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 tour_app\nFILE 0 src/main.c\nFUNC 1000 10 0 main\n1000 10 3 0\n'
const sha1 = (text: string) => new Bun.CryptoHasher('sha1').update(text).digest('hex')
const bearer = (w: TourWorld) => ({ authorization: `Bearer ${w.v.uploadToken}` })

/** sentry-cli uploads a debug file with the API token the auth tour made; the project lists, deletes, and the token is revoked. */
export const debugFilesTour: Tour = {
  'GET /api/0/organizations/{org}/chunk-upload': { as: 'anonymous', params: () => ({ org: 'studio' }), headers: bearer },
  'POST /api/0/organizations/{org}/chunk-upload': {
    as: 'anonymous',
    params: () => ({ org: 'studio' }),
    headers: bearer,
    body: () => {
      const form = new FormData()
      form.append('file', new Blob([SYM]), sha1(SYM))
      return form
    },
  },
  'POST /api/0/projects/{org}/{project}/files/difs/assemble': {
    as: 'anonymous',
    params: (w) => ({ org: 'studio', project: w.v.slug! }),
    headers: bearer,
    body: () => ({ [sha1(SYM)]: { name: 'tour_app.sym', chunks: [sha1(SYM)] } }),
  },
  // A source map bundle whose chunk was never sent: the answer names it missing.
  'POST /api/0/organizations/{org}/artifactbundle/assemble': {
    as: 'anonymous',
    params: () => ({ org: 'studio' }),
    headers: bearer,
    body: (w) => ({ checksum: sha1('bundle'), chunks: [sha1('bundle')], projects: [w.v.slug] }),
  },
  'GET /api/projects/{slug}/debug-files': { keep: (d, w) => (w.v.debugFileId = d[0].id) },
  'DELETE /api/projects/{slug}/debug-files/{id}': { params: (w) => ({ id: w.v.debugFileId! }) },
  'DELETE /api/auth/api-tokens/{id}': { as: 'owner', params: (w) => ({ id: w.v.apiTokenId! }) },
}
