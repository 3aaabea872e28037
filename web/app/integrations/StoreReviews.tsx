import './integrations.css'
import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { Message } from '../api/types'
import { Async, Badge, Button, ButtonLink, EmptyState, Page, Section, Select, TextArea, formatDate, toast, useAction } from '../components'
import { setQuery, type RouteProps } from '../router'
import { deniedReason } from '../session'
import { replyLimit } from './helpers'
import type { StoreReview } from './types'

const PER_PAGE = 50
const PROVIDERS = [
  { value: '', label: 'All stores' },
  { value: 'google_play', label: 'Google Play' },
  { value: 'app_store', label: 'App Store' },
]
const storeName = (key: string) => PROVIDERS.find((p) => p.value === key)?.label ?? key

/** `/projects/:slug/store-reviews?provider=&max_rating=&page=`: imported store reviews, newest first, with replies. */
export function StoreReviewsPage({ params, query }: RouteProps) {
  const slug = params.slug!
  const provider = query.provider ?? ''
  const maxRating = query.max_rating ?? ''
  const page = Math.max(1, Number(query.page) || 1)
  const list = useApi<StoreReview[]>(projectPath(slug, '/store-reviews'), { query: { provider, max_rating: maxRating, page } })
  const reason = deniedReason('project.integrations')
  return (
    <Page title="Store reviews" actions={<ButtonLink href={projectPath(slug, '/integrations')}>Integrations</ButtonLink>}>
      <Section title="Filters">
        <div class="row">
          <Select label="Store" value={provider} onValue={(v) => setQuery({ provider: v || null, page: null })} options={PROVIDERS} />
          <Select
            label="Max rating"
            value={maxRating}
            onValue={(v) => setQuery({ max_rating: v || null, page: null })}
            options={[{ value: '', label: 'Any rating' }, ...[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n} star${n > 1 ? 's' : ''} or fewer` }))]}
          />
        </div>
      </Section>
      <Section title="Reviews">
        <Async
          resource={list}
          empty={
            <EmptyState title={page > 1 ? 'No more reviews' : 'No reviews'}>
              {page > 1 ? 'Go back a page.' : 'Connect Google Play or the App Store under Integrations; reviews are imported hourly.'}
            </EmptyState>
          }
        >
          {(reviews) => (
            <ul class="entry-list">
              {reviews.map((r) => (
                <ReviewItem key={r.id} slug={slug} review={r} reason={reason} onReplied={() => void list.reload()} />
              ))}
            </ul>
          )}
        </Async>
        <nav class="pager" aria-label="Review pages">
          <Button size="sm" disabled={page <= 1} onClick={() => setQuery({ page: page - 1 > 1 ? String(page - 1) : null })}>
            Previous page
          </Button>
          <span class="small">Page {page}</span>
          <Button size="sm" disabled={(list.data.value?.length ?? 0) < PER_PAGE} onClick={() => setQuery({ page: String(page + 1) })}>
            Next page
          </Button>
        </nav>
      </Section>
    </Page>
  )
}

function ReviewItem({ slug, review: r, reason, onReplied }: { slug: string; review: StoreReview; reason?: string; onReplied: () => void }) {
  const existing = r.reply?.body ?? null
  const [open, setOpen] = useState(false)
  const [text, setText] = useState(existing ?? '')
  const limit = replyLimit(r.provider)
  const over = limit !== undefined && text.length > limit
  const { busy, error, onSubmit } = useAction(async () => {
    const res = await api.post<Message>(projectPath(slug, `/store-reviews/${encodeURIComponent(r.id)}/reply`), { body: text.trim() })
    toast(res.message)
    setOpen(false)
    onReplied()
  })
  const who = r.author ?? 'A player'
  return (
    <li class="entry">
      <div class="row small">
        <Badge tone={r.rating <= 2 ? 'danger' : r.rating >= 4 ? 'success' : 'neutral'}>
          {'★'.repeat(r.rating)}
          <span class="sr-only"> {r.rating} of 5 stars</span>
        </Badge>
        <span class="muted">
          {storeName(r.provider)} · {who} · {formatDate(r.reviewed_at)}
          {r.app_version && ` · version ${r.app_version}`}
        </span>
        {r.report_number !== null && <a href={projectPath(slug, `/reports/${r.report_number}`)}>Report #{r.report_number}</a>}
      </div>
      {r.title && <strong>{r.title}</strong>}
      <p class="entry-body">{r.body}</p>
      {existing && !open && (
        <div class="review-reply small">
          <strong>Your reply</strong> {r.reply?.replied_at && <span class="muted">({formatDate(r.reply.replied_at)})</span>}
          <p>{existing}</p>
        </div>
      )}
      {open ? (
        <form class="stack" onSubmit={onSubmit}>
          <TextArea label={`Reply to ${who}`} value={text} onValue={setText} rows={3} hint={limit ? `${text.length} / ${limit} characters` : `${text.length} characters`} error={over ? `${storeName(r.provider)} allows ${limit} characters` : error} />
          <div class="row">
            <Button type="submit" variant="primary" busy={busy} disabled={!text.trim() || over}>
              {existing ? 'Replace reply' : 'Post reply'}
            </Button>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
          </div>
        </form>
      ) : (
        <div>
          <Button size="sm" reason={reason} onClick={() => setOpen(true)} aria-label={`${existing ? 'Edit reply' : 'Reply'} to ${who}`}>
            {existing ? 'Edit reply' : 'Reply'}
          </Button>
        </div>
      )}
    </li>
  )
}
