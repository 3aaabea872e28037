import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { Spinner } from '../components'
import type { RouteProps } from '../router'
import { me } from '../session'

/**
 * `/verify-email`: the landing page of the verification link. The server verifies the mailed link and redirects
 * here with `?status=ok` or `?status=invalid`; with `?token=…` the page verifies the address through the API itself.
 */
export function VerifyEmail({ query }: RouteProps) {
  const already = query.status === 'ok'
  const [state, setState] = useState<{ kind: 'busy' } | { kind: 'ok' } | { kind: 'error'; message: string }>(
    already
      ? { kind: 'ok' }
      : query.token
        ? { kind: 'busy' }
        : {
            kind: 'error',
            message:
              query.status === 'invalid'
                ? 'This verification link is invalid, already used or expired. Sign in and ask for a new email from the banner of the dashboard.'
                : 'This verification link has no token. Ask for a new email from the banner of the dashboard.',
          },
  )
  useEffect(() => {
    if (already && me.value) me.value = { ...me.value, email_verified: true }
    if (already || !query.token) return
    api
      .get('/auth/verify-email', { query: { token: query.token }, redirectOn401: false })
      .then(() => {
        setState({ kind: 'ok' })
        if (me.value) me.value = { ...me.value, email_verified: true }
      })
      .catch((err) => setState({ kind: 'error', message: messageOf(err) }))
  }, [query.token])
  return (
    <>
      <h1>Email verification</h1>
      {state.kind === 'busy' && <Spinner label="Verifying your email address…" />}
      {state.kind === 'ok' && (
        <p class="notice" role="status">
          Your email address is verified. Thank you!
        </p>
      )}
      {state.kind === 'error' && (
        <p class="form-error" role="alert">
          {state.message}
        </p>
      )}
      <p class="auth-links">
        <a href="/">Go to the dashboard</a>
      </p>
    </>
  )
}
