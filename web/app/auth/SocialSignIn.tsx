import { useEffect, useRef, useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import type { Session } from '../api/types'
import { Button } from '../components'
import { serverInfo } from '../session'
import { loadScript } from './load-script'

const GOOGLE_SDK = 'https://accounts.google.com/gsi/client'
const APPLE_SDK = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js'

type GoogleSdk = { accounts: { id: { initialize(o: { client_id: string; callback: (r: { credential: string }) => void }): void; renderButton(el: HTMLElement, o: Record<string, unknown>): void } } }
type AppleSdk = { auth: { init(o: Record<string, unknown>): void; signIn(): Promise<{ authorization: { id_token: string } }> } }

/**
 * "Sign in with Google / Apple", only for the providers the server is configured for (`/api/server-info`).
 * The provider's SDK gives an ID token, which `/api/auth/login` verifies (the account is created on first use).
 */
export function SocialSignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const info = serverInfo.value
  const [error, setError] = useState<string | null>(null)
  const signIn = async (identity_token: string) => {
    try {
      await api.post<Session>('/auth/login', { identity_token }, { redirectOn401: false })
      await onSignedIn()
    } catch (err) {
      setError(messageOf(err))
    }
  }
  if (!info?.sign_in.google && !info?.sign_in.apple) return null
  return (
    <div class="social-sign-in stack" role="group" aria-label="Sign in with another account">
      {info.sign_in.google && <GoogleButton clientId={info.sign_in.google} onToken={signIn} onError={setError} />}
      {info.sign_in.apple && <AppleButton clientId={info.sign_in.apple} onToken={signIn} onError={setError} />}
      {error && <p class="form-error" role="alert">{error}</p>}
      <p class="muted small auth-or">or with your email</p>
    </div>
  )
}

function GoogleButton({ clientId, onToken, onError }: { clientId: string; onToken: (t: string) => void; onError: (e: string) => void }) {
  const slot = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState(false)
  useEffect(() => {
    loadScript(GOOGLE_SDK)
      .then(() => {
        const google = (window as unknown as { google?: GoogleSdk }).google
        if (!google || !slot.current) throw new Error('Google sign-in did not start')
        google.accounts.id.initialize({ client_id: clientId, callback: (r) => onToken(r.credential) })
        google.accounts.id.renderButton(slot.current, { theme: 'outline', size: 'large', text: 'signin_with', width: 300 })
        setReady(true)
      })
      .catch(() => onError('Google sign-in could not be loaded: check your connection, or sign in with your email'))
  }, [clientId])
  return (
    <div>
      <div ref={slot} />
      {!ready && <Button disabled reason="Loading Google sign-in…">Sign in with Google</Button>}
    </div>
  )
}

function AppleButton({ clientId, onToken, onError }: { clientId: string; onToken: (t: string) => void; onError: (e: string) => void }) {
  const [busy, setBusy] = useState(false)
  const click = async () => {
    setBusy(true)
    try {
      await loadScript(APPLE_SDK)
      const apple = (window as unknown as { AppleID?: AppleSdk }).AppleID
      if (!apple) throw new Error('Sign in with Apple did not start')
      apple.auth.init({ clientId, scope: 'name email', redirectURI: `${location.origin}/login`, usePopup: true })
      const res = await apple.auth.signIn()
      onToken(res.authorization.id_token)
    } catch (err) {
      onError(`Sign in with Apple failed: ${messageOf(err)}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button onClick={click} busy={busy}>
      Sign in with Apple
    </Button>
  )
}
