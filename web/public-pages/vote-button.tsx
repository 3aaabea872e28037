/** What a vote button needs: where the form posts (no JS) and where the script calls the API. */
export interface VoteTarget {
  /** Page route taking the form POST, e.g. `/tracker/{slug}/{n}/vote`. */
  action: string
  /** Public API route the vote script calls instead. */
  api: string
  /** Where the form POST sends the visitor back to. */
  back: string
}

/**
 * An upvote button that works without JavaScript (a form POST that redirects back) and that the vote
 * script turns into a fetch call. Pressed (and inert) once this voter has voted. Its name is its own
 * text, "Upvote: <title>, 12 votes": the visible count is part of it (WCAG 2.5.3), and the vote script
 * changes the words and the count in place.
 */
export function VoteButton(p: { target: VoteTarget; upvotes: number; voted: boolean; title: string }) {
  return (
    <form method="post" action={p.target.action} class="vote-form" data-api={p.target.api}>
      <input type="hidden" name="back" value={p.target.back} />
      <button type="submit" class="vote" aria-pressed={p.voted ? 'true' : 'false'} disabled={p.voted}>
        <span class="sr vote-action">{`${p.voted ? 'Upvoted' : 'Upvote'}: ${p.title}, `}</span>
        <span aria-hidden="true">▲</span>
        <span class="count">{p.upvotes}</span>
        <span class="sr vote-unit">{p.upvotes === 1 ? ' vote' : ' votes'}</span>
      </button>
    </form>
  )
}

/** The count alone, where voting is off. */
export const VoteCount = (p: { upvotes: number }) => (
  <div class="votes">
    <span class="count">{p.upvotes}</span>
    <span>{p.upvotes === 1 ? 'vote' : 'votes'}</span>
  </div>
)
