import { useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { Button, Page, Section } from '../components'
import type { RouteProps } from '../router'
import { loadSession } from '../session'

/** `/invite?token=…`: the invitation link; joining moves you into the inviting account. */
export function AcceptInvite({ query }: RouteProps) {
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'done'; account: string } | { kind: 'error'; message: string }>({ kind: 'idle' })
  const token = query.token ?? ''
  const accept = async () => {
    setState({ kind: 'busy' })
    try {
      const r = await api.post<{ account_name: string }>('/account/invites/accept', { token })
      setState({ kind: 'done', account: r.account_name })
      await loadSession()
    } catch (err) {
      setState({ kind: 'error', message: messageOf(err) })
    }
  }
  return (
    <Page title="Join a team">
      <Section title="Invitation">
        {!token ? (
          <p class="form-error" role="alert">
            This invitation link has no token.
          </p>
        ) : state.kind === 'done' ? (
          <p class="notice" role="status">
            You joined {state.account}. <a href="/">Open its projects</a>
          </p>
        ) : (
          <div class="stack">
            <p>You were invited to join a Glitchbox account. Accepting gives you access to its projects.</p>
            {state.kind === 'error' && (
              <p class="form-error" role="alert">
                {state.message}
              </p>
            )}
            <div>
              <Button variant="primary" busy={state.kind === 'busy'} onClick={accept}>
                Accept invitation
              </Button>
            </div>
          </div>
        )}
      </Section>
    </Page>
  )
}
