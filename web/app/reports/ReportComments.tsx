import { useState } from 'preact/hooks'
import { Badge, Button, Checkbox, EmptyState, formatDate, TextArea, toast, useAction } from '../components'
import { Linkified } from './Linkified'
import type { ReportComment } from './report-types'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'

/** The conversation on a report (internal comments marked) and the form to add one. */
export function ReportComments({ slug, number, comments, onAdded }: { slug: string; number: number; comments: ReportComment[]; onAdded: () => void }) {
  const [body, setBody] = useState('')
  const [internal, setInternal] = useState(false)
  const reason = usePermissions(slug).reason('comments.create')
  const { busy, error, run } = useAction(async () => {
    await reportsApi.comment(slug, number, { body, is_internal: internal })
    setBody('')
    setInternal(false)
    toast(internal ? 'Internal comment added' : 'Comment added')
    onAdded()
  })
  return (
    <section class="card report-comments">
      <h2>Comments ({comments.length})</h2>
      {comments.length === 0 ? (
        <EmptyState title="No comments yet" />
      ) : (
        <ol class="comment-list">
          {comments.map((c) => (
            <li key={c.id} class={c.is_internal ? 'comment comment-internal' : 'comment'}>
              <div class="comment-head">
                <strong>{c.author_name ?? 'Former member'}</strong>
                {c.is_internal && <Badge tone="warning">Internal</Badge>}
                <time class="muted" dateTime={c.created_at}>
                  {formatDate(c.created_at)}
                </time>
              </div>
              <p class="comment-body">
                <Linkified text={c.body} />
              </p>
            </li>
          ))}
        </ol>
      )}
      {reason ? (
        <p class="muted">{reason}</p>
      ) : (
        <form
          class="stack"
          onSubmit={(e) => {
            e.preventDefault()
            if (body.trim()) void run()
          }}
        >
          <TextArea label="Comment" value={body} onValue={setBody} rows={4} maxLength={20_000} error={error} hint="Plain text; links become clickable." />
          <Checkbox label="Internal" hint="Internal comments are seen by the team only, never on the public tracker." checked={internal} onChecked={setInternal} />
          <div>
            <Button type="submit" variant="primary" busy={busy} disabled={!body.trim()}>
              Add comment
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}
