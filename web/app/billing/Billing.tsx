import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { useApi } from '../api/resource'
import type { Subscription } from '../api/types'
import { Async, Badge, Button, EmptyState, Page, Section, Spinner, UsageBar, formatBytes, formatDate, toast } from '../components'
import type { RouteProps } from '../router'
import { billingConfigured, can, loadSession, permissions } from '../session'

const PLAN_NAMES: Record<string, string> = { self_hosted: 'Self-hosted', free: 'Free', pro: 'Pro', studio: 'Studio' }

/** `/billing` (when Stripe is configured): plan, usage against the limits, upgrade and the customer portal. */
export function Billing() {
  if (billingConfigured.value === undefined || permissions.value === undefined) return <Spinner />
  if (!billingConfigured.value) {
    return (
      <Page title="Billing">
        <EmptyState title="Billing is not configured on this server">Plans are set by the operator with <code>glitchbox admin set-plan EMAIL PLAN</code>.</EmptyState>
      </Page>
    )
  }
  if (!can('billing.manage')) {
    return (
      <Page title="Billing">
        <EmptyState title="Not available to you">Billing needs the “Billing” permission: ask the owner of the account.</EmptyState>
      </Page>
    )
  }
  return <BillingView />
}

function BillingView() {
  const sub = useApi<Subscription>('/billing/subscription')
  const [busy, setBusy] = useState<string | null>(null)
  const go = async (what: string, fn: () => Promise<{ url: string }>) => {
    setBusy(what)
    try {
      const { url } = await fn()
      window.location.assign(url)
    } catch (err) {
      toast(messageOf(err), 'error')
      setBusy(null)
    }
  }
  return (
    <Page title="Billing">
      <Async resource={sub}>
        {(s) => (
          <>
            <Section
              title="Plan"
              actions={
                s.status !== 'none' && (
                  <Button busy={busy === 'portal'} onClick={() => go('portal', () => api.post<{ url: string }>('/billing/portal'))}>
                    Manage payment and invoices
                  </Button>
                )
              }
            >
              <p>
                <strong>{PLAN_NAMES[s.plan] ?? s.plan}</strong> <Badge tone={s.status === 'active' ? 'success' : 'neutral'}>{s.status === 'none' ? 'no subscription' : s.status}</Badge>
              </p>
              {s.current_period_end && (
                <p class="muted">
                  {s.cancel_at_period_end ? 'Ends' : 'Renews'} {formatDate(s.current_period_end, false)}
                </p>
              )}
              {s.tier < 3 && (
                <div class="row">
                  {s.tier < 2 && (
                    <Button variant="primary" busy={busy === 'pro'} onClick={() => go('pro', () => api.post<{ url: string }>('/billing/create-checkout', { plan: 'pro' }))}>
                      Upgrade to Pro
                    </Button>
                  )}
                  <Button variant="primary" busy={busy === 'studio'} onClick={() => go('studio', () => api.post<{ url: string }>('/billing/create-checkout', { plan: 'studio' }))}>
                    Upgrade to Studio
                  </Button>
                </div>
              )}
            </Section>
            <Section title="Usage">
              <div class="stack">
                <UsageBar label="Projects" used={s.usage.projects} limit={s.limits.projects} />
                <UsageBar label="Reports" used={s.usage.reports} limit={s.limits.reports} />
                <UsageBar label="Uploads" used={s.usage.upload_bytes} limit={s.limits.upload_bytes} format={formatBytes} />
                <UsageBar label="Seats" used={s.usage.seats} limit={s.limits.seats} />
              </div>
            </Section>
          </>
        )}
      </Async>
    </Page>
  )
}

/** `/billing/success?session_id=…`: where Stripe Checkout returns; applies the completed checkout. */
export function BillingSuccess({ query }: RouteProps) {
  const [state, setState] = useState<{ kind: 'busy' } | { kind: 'done'; plan: string; status: string } | { kind: 'error'; message: string }>({ kind: 'busy' })
  useEffect(() => {
    if (!query.session_id) {
      setState({ kind: 'error', message: 'This page needs the session_id Stripe adds to the link.' })
      return
    }
    api
      .get<{ plan: string; status: string }>('/billing/verify-session', { query: { session_id: query.session_id } })
      .then((r) => {
        setState({ kind: 'done', ...r })
        void loadSession()
      })
      .catch((err) => setState({ kind: 'error', message: messageOf(err) }))
  }, [query.session_id])
  return (
    <Page title="Billing">
      <Section title="Checkout">
        {state.kind === 'busy' && <Spinner label="Confirming your payment…" />}
        {state.kind === 'done' && (
          <p class="notice" role="status">
            {state.status === 'complete' ? `You are now on the ${PLAN_NAMES[state.plan] ?? state.plan} plan. Thank you!` : `The checkout is ${state.status}.`} <a href="/billing">Back to billing</a>
          </p>
        )}
        {state.kind === 'error' && (
          <p class="form-error" role="alert">
            {state.message} <a href="/billing">Back to billing</a>
          </p>
        )}
      </Section>
    </Page>
  )
}
