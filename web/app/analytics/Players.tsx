import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, EmptyState, Pager, Section, Select, Table, TextArea, TextField, formatDate, pageCount, toast, useAction } from '../components'
import { setQuery, type RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import type { CustomersOverview, Player, PlayerBugs, PlayerList, PlayerSessions } from './types'

/** `/projects/:slug/analytics/players?q=&page=`: the overview and the searchable player list. */
export function PlayersPage({ params, query }: RouteProps) {
  const slug = params.slug!
  const page = Math.max(1, Number(query.page) || 1)
  const list = useApi<PlayerList>(projectPath(slug, '/players'), { query: { page, ...(query.q ? { q: query.q } : {}) } })
  const overview = useApi<CustomersOverview>(projectPath(slug, '/customers/overview'))
  return (
    <AnalyticsFrame slug={slug} title="Players">
      <Section title="Overview">
        <Async resource={overview}>
          {(o) => (
            <p>
              {o.players} players · {o.active_7_days} active in 7 days · {o.active_30_days} in 30 days · {o.reporting_players} filed reports · sentiment {o.sentiment.positive} positive, {o.sentiment.neutral} neutral, {o.sentiment.negative} negative
            </p>
          )}
        </Async>
      </Section>
      <Section title="Players">
        <TextField label="Search players" type="search" value={query.q ?? ''} onValue={(q: string) => setQuery({ q: q || null, page: null }, { replace: true })} />
        <Async resource={list} empty={<EmptyState title="No players found" />} isEmpty={(d) => d.players.length === 0}>
          {(d) => {
            const pages = pageCount(d.total, d.per_page)
            return (
              <>
                <Table
                  caption={`Players, page ${d.page} of ${pages}`}
                  rows={d.players}
                  rowKey={(p) => p.player_id}
                  columns={[
                    { key: 'id', header: 'Player', render: (p) => <a href={`/projects/${encodeURIComponent(slug)}/analytics/players/${encodeURIComponent(p.player_id)}`}>{p.name ? `${p.name} (${p.player_id})` : p.player_id}</a> },
                    { key: 's', header: 'Sessions', render: (p) => p.session_count },
                    { key: 'l', header: 'Last seen', render: (p) => <span class="nowrap">{formatDate(p.last_seen)}</span> },
                    { key: 'm', header: 'Sentiment', render: (p) => p.sentiment ?? '–' },
                  ]}
                />
                <Pager label="Player pages" page={d.page} pages={pages} count={`${d.total} players`} />
              </>
            )
          }}
        </Async>
      </Section>
    </AnalyticsFrame>
  )
}

function NotesForm({ slug, player, onSaved }: { slug: string; player: Player; onSaved: () => void }) {
  const [notes, setNotes] = useState(player.notes)
  const [sentiment, setSentiment] = useState(player.sentiment ?? '')
  const { busy, onSubmit } = useAction(
    async () => {
      await api.patch(projectPath(slug, `/players/${encodeURIComponent(player.player_id)}`), { notes, sentiment: sentiment || null })
      toast('Player notes saved')
      onSaved()
    },
    { toastErrors: true },
  )
  return (
    <form onSubmit={onSubmit}>
      <TextArea label="Notes" value={notes} onValue={setNotes} />
      <Select
        label="Sentiment"
        value={sentiment}
        onValue={setSentiment}
        options={[
          { value: '', label: 'Not rated' },
          { value: 'positive', label: 'Positive' },
          { value: 'neutral', label: 'Neutral' },
          { value: 'negative', label: 'Negative' },
        ]}
      />
      <Button type="submit" disabled={busy}>
        Save notes
      </Button>
    </form>
  )
}

/** `/projects/:slug/analytics/players/:playerId`: a player with notes, sessions and reports. */
export function PlayerPage({ params }: RouteProps) {
  const slug = params.slug!
  const id = params.playerId!
  const base = `/players/${encodeURIComponent(id)}`
  const player = useApi<Player>(projectPath(slug, base))
  const sessions = useApi<PlayerSessions>(projectPath(slug, `${base}/sessions`))
  const bugs = useApi<PlayerBugs>(projectPath(slug, `${base}/bugs`))
  return (
    <AnalyticsFrame slug={slug} title={`Player ${id}`}>
      <Section title="Player">
        <Async resource={player}>
          {(p) => (
            <>
              <p>
                {p.name ?? p.player_id} · first seen {formatDate(p.first_seen)} · last seen {formatDate(p.last_seen)} · {p.session_count} sessions ({p.stored_sessions.crashed} of the stored ones crashed) · {p.reports} reports
              </p>
              <NotesForm slug={slug} player={p} onSaved={() => void player.reload()} />
            </>
          )}
        </Async>
      </Section>
      <Section title="Sessions">
        <Async resource={sessions} empty={<EmptyState title="No stored sessions" />} isEmpty={(d) => d.sessions.length === 0}>
          {(d) => (
            <Table
              caption="Sessions, newest first"
              rows={d.sessions}
              rowKey={(s) => s.id}
              columns={[
                { key: 'st', header: 'Started', render: (s) => <span class="nowrap">{formatDate(s.started_at)}</span> },
                { key: 'v', header: 'Version', render: (s) => s.game_version || '–' },
                { key: 'p', header: 'Platform', render: (s) => s.platform || '–' },
                { key: 'd', header: 'Duration', render: (s) => (s.duration_sec === null ? 'open' : `${Math.round(s.duration_sec / 60)} min`) },
                { key: 'c', header: 'Crashed', render: (s) => (s.crashed ? 'yes' : 'no') },
              ]}
            />
          )}
        </Async>
      </Section>
      <Section title="Reports">
        <Async resource={bugs} empty={<EmptyState title="No reports from this player" />} isEmpty={(d) => d.bugs.length === 0}>
          {(d) => (
            <Table
              caption="Reports, newest first"
              rows={d.bugs}
              rowKey={(b) => String(b.report_number)}
              columns={[
                { key: 'n', header: 'Report', render: (b) => <a href={`/projects/${encodeURIComponent(slug)}/reports/${b.report_number}`}>#{b.report_number} {b.title}</a> },
                { key: 's', header: 'Status', render: (b) => b.status },
                { key: 'v', header: 'Version', render: (b) => b.game_version || '–' },
                { key: 'c', header: 'Filed', render: (b) => <span class="nowrap">{formatDate(b.created_at)}</span> },
              ]}
            />
          )}
        </Async>
      </Section>
    </AnalyticsFrame>
  )
}
