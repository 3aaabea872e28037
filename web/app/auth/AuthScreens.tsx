import { useEffect, useState } from 'preact/hooks'
import { api, ApiError } from '../api/client'
import type { Session, SignupBody } from '../api/types'
import { Button, FormError, TextField, useAction } from '../components'
import { buildUrl, navigate, type RouteProps } from '../router'
import { loadServerInfo, loadSession } from '../session'
import { SocialSignIn } from './SocialSignIn'
import { safeNext } from './next'

/** `/login`: email and password, and Google or Apple when the server is configured for them. */
export function Login({ query }: RouteProps) {
  useEffect(() => void loadServerInfo(), [])
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { busy, error, onSubmit } = useAction(async () => {
    await api.post<Session>('/auth/login', { email, password }, { redirectOn401: false })
    await loadSession()
    navigate(safeNext(query.next), { replace: true })
  })
  return (
    <>
      <h1>Sign in</h1>
      {query.reset === '1' && <p class="notice" role="status">Your password was changed: sign in with the new one.</p>}
      <SocialSignIn onSignedIn={async () => (await loadSession(), navigate(safeNext(query.next), { replace: true }))} />
      <form onSubmit={onSubmit} class="stack" noValidate>
        <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
        <FormError error={error} />
        <Button type="submit" variant="primary" busy={busy}>
          Sign in
        </Button>
      </form>
      <p class="auth-links">
        <a href="/forgot-password">Forgot your password?</a>
        <span>
          No account? <a href={buildUrl('/signup', { next: query.next })}>Sign up</a>
        </span>
      </p>
    </>
  )
}

/** `/signup`: name, email, password (min 8); or Google or Apple when configured (the account is created on first sign-in). */
export function Signup({ query }: RouteProps) {
  useEffect(() => void loadServerInfo(), [])
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const short = password.length > 0 && password.length < 8
  const { busy, error, onSubmit } = useAction(async () => {
    const body: SignupBody = { email, password, ...(name.trim() ? { name: name.trim() } : {}) }
    await api.post<Session>('/auth/signup', body, { redirectOn401: false })
    await loadSession()
    navigate(safeNext(query.next), { replace: true })
  })
  return (
    <>
      <h1>Create your account</h1>
      <SocialSignIn onSignedIn={async () => (await loadSession(), navigate(safeNext(query.next), { replace: true }))} />
      <form onSubmit={onSubmit} class="stack" noValidate>
        <TextField label="Name" autoComplete="name" maxLength={100} value={name} onValue={setName} hint="Shown to your teammates. Optional." />
        <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={password}
          onValue={setPassword}
          hint="At least 8 characters."
          error={short ? 'The password must be at least 8 characters' : null}
        />
        <FormError error={error} />
        <Button type="submit" variant="primary" busy={busy}>
          Create account
        </Button>
      </form>
      <p class="auth-links">
        <span>
          Already have an account? <a href={buildUrl('/login', { next: query.next })}>Sign in</a>
        </span>
      </p>
    </>
  )
}

/** `/forgot-password`: asks for a reset link; the answer is the same whether or not the account exists. */
export function ForgotPassword() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const { busy, error, onSubmit } = useAction(async () => {
    await api.post('/auth/forgot-password', { email }, { redirectOn401: false })
    setSent(true)
  })
  return (
    <>
      <h1>Reset your password</h1>
      {sent ? (
        <p class="notice" role="status">
          If an account exists for <strong>{email}</strong>, we sent it a link to choose a new password. The link works for one hour.
        </p>
      ) : (
        <form onSubmit={onSubmit} class="stack" noValidate>
          <p class="muted">Enter the email address of your account and we will send you a link to choose a new password.</p>
          <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
          <FormError error={error} />
          <Button type="submit" variant="primary" busy={busy}>
            Send reset link
          </Button>
        </form>
      )}
      <p class="auth-links">
        <a href="/login">Back to sign in</a>
      </p>
    </>
  )
}

/** `/reset-password?token=…`: sets a new password (every session of the user is signed out). */
export function ResetPassword({ query }: RouteProps) {
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const token = query.token ?? ''
  const mismatch = again.length > 0 && again !== password
  const { busy, error, onSubmit } = useAction(async () => {
    if (password.length < 8) throw new ApiError(400, 'The password must be at least 8 characters')
    if (password !== again) throw new ApiError(400, 'The two passwords differ')
    await api.post('/auth/reset-password', { token, new_password: password }, { redirectOn401: false })
    navigate('/login?reset=1', { replace: true })
  })
  if (!token) {
    return (
      <>
        <h1>Reset your password</h1>
        <FormError error="This link has no reset token. Ask for a new link." />
        <p class="auth-links">
          <a href="/forgot-password">Ask for a new link</a>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Choose a new password</h1>
      <form onSubmit={onSubmit} class="stack" noValidate>
        <TextField label="New password" type="password" autoComplete="new-password" required minLength={8} value={password} onValue={setPassword} hint="At least 8 characters." />
        <TextField label="Repeat the new password" type="password" autoComplete="new-password" required value={again} onValue={setAgain} error={mismatch ? 'The two passwords differ' : null} />
        <FormError error={error} />
        <Button type="submit" variant="primary" busy={busy}>
          Set new password
        </Button>
      </form>
      <p class="auth-links">
        <a href="/forgot-password">Ask for a new link</a>
      </p>
    </>
  )
}
