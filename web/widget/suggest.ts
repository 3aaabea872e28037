import { el } from './dom'

export interface Suggestion {
  report_number: number
  title: string
  url: string
}

interface SuggestionSource {
  /** Public reports like `text`, or null when the server said no (rate limited, tracker off). */
  search(text: string): Promise<{ bugs: Suggestion[]; can_vote: boolean } | null>
  /** Votes for `s` instead of filing; throws when the vote was refused. */
  vote(s: Suggestion): Promise<void>
}

const DEBOUNCE_MS = 350
const MIN_CHARS = 4

/**
 * Suggestions under the widget's title field: as the player types (350 ms after the last key),
 * public reports like the title, each a link and, when votes are on, a button that votes instead
 * of filing. Failures show nothing; the form still works.
 */
export function suggestionsUnder(title: HTMLInputElement, source: SuggestionSource): HTMLElement {
  const box = el('div', { class: 'suggest', 'aria-live': 'polite' })
  let timer: ReturnType<typeof setTimeout> | undefined
  let asked = ''
  const show = (bugs: Suggestion[], canVote: boolean) => {
    box.replaceChildren()
    if (bugs.length === 0) return
    box.append(el('p', { class: 'hint' }, 'Already reported? Vote for it instead of sending it again:'))
    const list = el('ul')
    for (const s of bugs) {
      const item = el('li')
      item.append(el('a', { href: s.url, target: '_blank', rel: 'noopener' }, `#${s.report_number} ${s.title}`))
      if (canVote) {
        const vote = el('button', { type: 'button', class: 'secondary', 'aria-label': `Vote for #${s.report_number} ${s.title} instead` }, 'Vote instead')
        vote.addEventListener('click', async () => {
          vote.disabled = true
          try {
            await source.vote(s)
          } catch {
            vote.disabled = false
          }
        })
        item.append(vote)
      }
      list.append(item)
    }
    box.append(list)
  }
  title.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const text = title.value.trim()
      if (text === asked) return
      asked = text
      if (text.length < MIN_CHARS) return show([], false)
      try {
        const found = await source.search(text.slice(0, 300))
        // A newer title was typed meanwhile: its own answer will show.
        if (found && title.value.trim() === text) show(found.bugs, found.can_vote)
      } catch {
        // Offline: no suggestions.
      }
    }, DEBOUNCE_MS)
  })
  return box
}
