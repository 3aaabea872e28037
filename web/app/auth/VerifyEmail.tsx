import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { Spinner } from '../components'
import type { RouteProps } from '../router'
import { me } from '../session'

/**
 * `/verify-email`: the landing page of the verification link. With `?token=…` it verifies the address through the
 * API; a link the server already verified may arrive with `?verified=1` (or `status=verified`), or `error=…`.
 */
export function VerifyEmail({ query }: RouteProps) {
  const already = query.verified === '1' || query.verified === 'true' || query.status === 'verified' || query.status === 'ok'
  const [state, setState] = useState<{ kind: 'busy' } | { kind: 'ok' } | { kind: 'error'; message: string }>(
    already ? { kind: 'ok' } : query.token ? { kind: 'busy' } : { kind: 'error', message: query.error || 'This verification link has no token. Ask for a new email from the banner of the dashboard.' },
  )
  useEffect(() => {
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
