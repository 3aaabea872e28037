/**
 * Vote buttons call the public vote API instead of posting the form, then show the new count and the
 * voted state. Without the script the form POST does the same. Same-origin credentials: the browser's
 * voter cookie names the voter, as it does for the form.
 */

interface VoteAnswer {
  ok: boolean
  data?: { upvotes: number; is_new: boolean }
}

function enhance(form: HTMLFormElement): void {
  const api = form.dataset.api
  const button = form.querySelector<HTMLButtonElement>('button.vote')
  const count = form.querySelector<HTMLElement>('.count')
  const action = form.querySelector<HTMLElement>('.vote-action')
  const unit = form.querySelector<HTMLElement>('.vote-unit')
  if (!api || !button || !count || !action || !unit) return
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (button.getAttribute('aria-pressed') === 'true') return
    button.disabled = true
    try {
      const res = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' })
      const answer = (await res.json()) as VoteAnswer
      if (!res.ok || !answer.data) throw new Error(`vote answered ${res.status}`)
      // The button's name is its text (vote-button.tsx): the words change with the count.
      count.textContent = String(answer.data.upvotes)
      action.textContent = (action.textContent ?? '').replace(/^Upvote:/, 'Upvoted:')
      unit.textContent = answer.data.upvotes === 1 ? ' vote' : ' votes'
      button.setAttribute('aria-pressed', 'true')
    } catch {
      // Rate limited or offline: leave the button as it was so the player may try again.
      button.disabled = false
    }
  })
}

document.querySelectorAll<HTMLFormElement>('form.vote-form[data-api]').forEach(enhance)
export {}
