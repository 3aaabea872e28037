import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { type Resource, useApi } from '../api/resource'
import type { Message } from '../api/types'
import { Async, Badge, Button, ButtonLink, Chart, Checkbox, ConfirmDialog, EmptyState, ExternalLink, ErrorState, Page, Section, Spinner, TextField, formatDate, toast, useAction } from '../components'
import type { RouteProps } from '../router'
import { deniedReason } from '../session'
import { percent } from './helpers'
import type { SteamConnection, SteamDashboard, SteamRefundSignals, SteamReview, SteamReviewPage, SteamSyncStats } from './types'

/** The Steam card of the integrations screen: connect an app id, or the connected app with sync, the hourly toggle and a link to its dashboard. */
export function SteamSection({ slug, reason }: { slug: string; reason?: string }) {
  const base = projectPath(slug, '/steam')
  const steam = useApi<SteamConnection>(base)
  const [appId, setAppId] = useState('')
  const [removing, setRemoving] = useState(false)
  const err = steam.error.value
  const connect = useAction(async () => {
    await api.post(base, { app_id: appId.trim() })
    toast('Steam app connected: the first import is queued')
    await steam.reload()
  })
  let body
  if (err && err.status !== 404) body = <ErrorState title="Could not load Steam" message={err.message} onRetry={() => void steam.reload()} />
  else if (err?.status === 404)
    body = (
      <form class="row" onSubmit={connect.onSubmit}>
        <TextField label="Steam app id" inputMode="numeric" pattern="[0-9]*" hint="The number in the game's store URL (store.steampowered.com/app/…)." value={appId} onValue={setAppId} disabled={Boolean(reason)} required />
        <Button type="submit" variant="primary" busy={connect.busy} reason={reason} disabled={!appId.trim()}>
          Connect Steam app
        </Button>
        {connect.error && <p class="field-error" role="alert">{connect.error}</p>}
      </form>
    )
  else if (!steam.data.value) body = <Spinner />
  else {
    const s = steam.data.value
    body = (
      <div class="stack">
        <p>
          App <ExternalLink href={s.store_url}>{s.app_id}</ExternalLink> · last import {formatDate(s.last_sync_at)}
        </p>
        <Checkbox
          label="Import new reviews every hour"
          checked={s.sync_enabled}
          disabled={Boolean(reason)}
          title={reason}
          onChecked={async (on) => {
            try {
              await api.patch(base, { sync_enabled: on })
              await steam.reload()
            } catch (e2) {
              toast(messageOf(e2), 'error')
            }
          }}
        />
        <div class="row">
          <ButtonLink href={projectPath(slug, '/integrations/steam')} variant="primary">Steam dashboard</ButtonLink>
          <SyncButton base={base} reason={reason} onDone={() => void steam.reload()} />
          <Button variant="danger" onClick={() => setRemoving(true)} reason={reason}>Disconnect Steam</Button>
        </div>
        <ConfirmDialog
          open={removing}
          title="Disconnect Steam"
          message="Stop importing this app's reviews?"
          confirmLabel="Disconnect"
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            const r = await api.delete<Message>(base)
            toast(r.message)
            await steam.reload()
          }}
        />
      </div>
    )
  }
  return (
    <Section title="Steam" description="Import the game's public Steam reviews: review score, positive share over time, refund signals.">
      {body}
    </Section>
  )
}

function SyncButton({ base, reason, onDone }: { base: string; reason?: string; onDone: () => void }) {
  const { busy, run } = useAction(
    async () => {
      const r = await api.post<{ fetched: number; new: number }>(`${base}/sync`)
      toast(`Imported: ${r.fetched} fetched, ${r.new} new`)
      onDone()
    },
    { toastErrors: true },
  )
  return (
    <Button onClick={run} busy={busy} reason={reason}>
      Sync now
    </Button>
  )
}

/** `/projects/:slug/integrations/steam`: review score, positive share chart, recent reviews, refund signals, import stats. */
export function SteamPage({ params }: RouteProps) {
  const slug = params.slug!
  const base = projectPath(slug, '/steam')
  const [version, setVersion] = useState(0)
  const reason = deniedReason('project.integrations')
  return (
    <Page
      title="Steam reviews"
      actions={
        <>
          <ButtonLink href={projectPath(slug, '/integrations')}>All integrations</ButtonLink>
          <SyncButton base={base} reason={reason} onDone={() => setVersion((v) => v + 1)} />
        </>
      }
    >
      <SteamBody version={version} base={base} />
    </Page>
  )
}

/** Reloads the resources when `version` moves on (after a sync), keeping what they show meanwhile. */
function useReloadOn(version: number, ...resources: Resource<unknown>[]) {
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    for (const r of resources) void r.reload()
  }, [version])
}

/** Everything the dashboard shows; reloaded after a sync. */
function SteamBody({ base, version }: { base: string; version: number }) {
  const [days, setDays] = useState(30)
  const dash = useApi<SteamDashboard>(`${base}/dashboard`, { query: { days } })
  const stats = useApi<SteamSyncStats>(`${base}/sync-stats`)
  useReloadOn(version, dash as Resource<unknown>, stats as Resource<unknown>)
  if (dash.error.value?.status === 404)
    return (
      <EmptyState title="Steam is not connected" action={<ButtonLink href={`${base.replace(/\/steam$/, '')}/integrations`} variant="primary">Connect a Steam app</ButtonLink>}>
        Connect the game's Steam app id under Integrations to import its reviews.
      </EmptyState>
    )
  return (
    <>
      <Async resource={dash}>{(d) => <Overview d={d} days={days} setDays={setDays} />}</Async>
      <Section title="Import">
        <Async resource={stats}>
          {(s) => (
            <dl class="kv">
              <dt>Hourly import</dt>
              <dd>{s.sync_enabled ? 'on' : 'off'}</dd>
              <dt>Last import</dt>
              <dd>{formatDate(s.last_sync_at)} {s.fetched !== null && `(${s.fetched} fetched, ${s.new ?? 0} new)`}</dd>
              <dt>Imports</dt>
              <dd>{s.syncs} succeeded, {s.errors} failed</dd>
              {s.last_error && (<><dt>Last error</dt><dd class="field-error">{s.last_error}</dd></>)}
              <dt>Stored reviews</dt>
              <dd>{s.stored_reviews}</dd>
            </dl>
          )}
        </Async>
      </Section>
      <RecentReviews base={base} version={version} />
      <RefundSignals base={base} version={version} />
    </>
  )
}

function Overview({ d, days, setDays }: { d: SteamDashboard; days: number; setDays: (n: number) => void }) {
  const x = useMemo(() => d.over_time.map((p) => Date.parse(`${p.date}T00:00:00Z`) / 1000), [d])
  const series = useMemo(() => [{ label: 'Positive share (%)', values: d.over_time.map((p) => (p.positive_share === null ? null : Math.round(p.positive_share * 1000) / 10)) }], [d])
  return (
    <Section
      title="Review score"
      actions={
        <label class="row small">
          Period
          <select aria-label="Period" value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">365 days</option>
          </select>
        </label>
      }
    >
      <div class="counts">
        <div>
          <strong>{d.review_score_desc ?? 'No score yet'}</strong>
          <div class="muted small">Steam score {d.review_score ?? '–'} / 9</div>
        </div>
        <div>
          <strong>{percent(d.positive_share)}</strong>
          <div class="muted small">positive</div>
        </div>
        <div>
          <strong>{d.total_reviews ?? d.stored_reviews}</strong>
          <div class="muted small">reviews ({d.total_positive ?? '–'} positive, {d.total_negative ?? '–'} negative)</div>
        </div>
      </div>
      {d.over_time.length > 0 ? <Chart title={`Positive share per day, last ${days} days`} x={x} series={series} /> : <EmptyState title="No reviews in this period" />}
    </Section>
  )
}

function ReviewItem({ r }: { r: SteamReview }) {
  return (
    <li class="entry">
      <div class="row small">
        <Badge tone={r.voted_up ? 'success' : 'danger'}>{r.voted_up ? 'Recommended' : 'Not recommended'}</Badge>
        <span class="muted">
          {formatDate(r.posted_at)} · {r.playtime_at_review_minutes !== null ? `${Math.round(r.playtime_at_review_minutes / 6) / 10} h played at review` : 'playtime unknown'} · {r.language}
        </span>
      </div>
      <p class="entry-body">{r.review}</p>
    </li>
  )
}

function RecentReviews({ base, version }: { base: string; version: number }) {
  const [page, setPage] = useState(1)
  const [filter, setFilter] = useState<'all' | 'positive' | 'negative'>('all')
  const list = useApi<SteamReviewPage>(`${base}/reviews`, { query: { page, filter } })
  useReloadOn(version, list as Resource<unknown>)
  return (
    <Section
      title="Recent reviews"
      actions={
        <label class="row small">
          Show
          <select aria-label="Which reviews" value={filter} onChange={(e) => (setFilter(e.currentTarget.value as typeof filter), setPage(1))}>
            <option value="all">All</option>
            <option value="positive">Positive</option>
            <option value="negative">Negative</option>
          </select>
        </label>
      }
    >
      <Async resource={list} isEmpty={(p) => p.reviews.length === 0} empty={<EmptyState title="No reviews imported yet">Sync now, or wait for the hourly import.</EmptyState>}>
        {(p) => (
          <>
            <ul class="entry-list">{p.reviews.map((r) => <ReviewItem key={r.recommendation_id} r={r} />)}</ul>
            <nav class="pager" aria-label="Review pages">
              <Button size="sm" disabled={p.page <= 1} onClick={() => setPage(p.page - 1)}>Previous page</Button>
              <span class="small">Page {p.page} of {Math.max(1, Math.ceil(p.total / p.per_page))}</span>
              <Button size="sm" disabled={p.page * p.per_page >= p.total} onClick={() => setPage(p.page + 1)}>Next page</Button>
            </nav>
          </>
        )}
      </Async>
    </Section>
  )
}

function RefundSignals({ base, version }: { base: string; version: number }) {
  const signals = useApi<SteamRefundSignals>(`${base}/refund-signals`)
  useReloadOn(version, signals as Resource<unknown>)
  return (
    <Section title="Refund signals" description="Negative reviews written with little playtime (Steam refunds games played under two hours), and reviews mentioning refunds.">
      <Async resource={signals}>
        {(s) => (
          <div class="grid-2">
            <div>
              <h3>Negative under {Math.round(s.playtime_threshold_minutes / 60)} h played ({s.low_playtime_negative.total})</h3>
              {s.low_playtime_negative.reviews.length ? <ul class="entry-list">{s.low_playtime_negative.reviews.slice(0, 10).map((r) => <ReviewItem key={r.recommendation_id} r={r} />)}</ul> : <p class="muted">None.</p>}
            </div>
            <div>
              <h3>Mentioning a refund ({s.refund_mentions.total})</h3>
              {s.refund_mentions.reviews.length ? <ul class="entry-list">{s.refund_mentions.reviews.slice(0, 10).map((r) => <ReviewItem key={r.recommendation_id} r={r} />)}</ul> : <p class="muted">None.</p>}
            </div>
          </div>
        )}
      </Async>
    </Section>
  )
}
