import type { Tour } from './tour.types'

const email = 'dana@studio.example'
const tokenIn = (mail: string, path: string) => new URL(/https?:\/\/\S+/.exec(mail.slice(mail.indexOf(path) - 40))![0]).searchParams.get('token')!

/** A new user signs up, verifies, resets the password and looks after the profile (the account is deleted at the end). */
export const authTour: Tour = {
  'POST /api/auth/signup': { as: 'anonymous', body: () => ({ email, password: 'first password 1', name: 'Dana Dev' }), keep: (d, w) => (w.v.userToken = d.token) },
  'POST /api/auth/login': { as: 'anonymous', body: () => ({ email, password: 'first password 1' }), keep: (d, w) => (w.v.userToken = d.token) },
  // Signed in, with no body: the mail goes to the signed-in address.
  'POST /api/auth/resend-verification': { as: 'user' },
  'GET /api/auth/verify-email': { as: 'anonymous', before: async (w) => (w.v.mail = await w.mailTo(email)), query: (w) => ({ token: tokenIn(w.v.mail!, '/api/auth/verify-email') }) },
  'POST /api/auth/forgot-password': { as: 'anonymous', body: () => ({ email }) },
  'POST /api/auth/reset-password': { as: 'anonymous', before: async (w) => (w.v.mail = await w.mailTo(email)), body: (w) => ({ token: tokenIn(w.v.mail!, '/reset-password'), new_password: 'second password 2' }) },
  'GET /api/auth/me': { as: 'owner' },
  'PATCH /api/auth/profile': { as: 'owner', body: () => ({ display_name: 'Olivia O.', theme: 'dark' }) },
  'POST /api/auth/change-password': {
    as: 'user',
    before: async (w) => {
      const res = await w.t.request('POST', '/api/auth/login', { body: { email, password: 'second password 2' } })
      w.v.userToken = res.body.data.token
    },
    body: () => ({ current_password: 'second password 2', new_password: 'third password 3' }),
  },
  'POST /api/auth/support-share-code': { as: 'owner', query: () => ({ hours: '3' }) },
  'DELETE /api/auth/support-share-code': { as: 'owner' },
  'GET /api/account/export': { as: 'owner' },
  // A token for sentry-cli, limited to the project; the debug-files tour uploads with it, then revokes it.
  'POST /api/auth/api-tokens': {
    as: 'owner',
    body: (w) => ({ name: 'CI', scopes: ['debug_files.upload'], project: w.v.slug }),
    keep: (d, w) => ((w.v.uploadToken = d.token), (w.v.apiTokenId = d.id)),
  },
  'GET /api/auth/api-tokens': { as: 'owner' },
}
