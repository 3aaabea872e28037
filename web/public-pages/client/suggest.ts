/**
 * The report form's suggestions: as the player types a title, public reports with similar titles
 * appear under it (the tracker's similar-reports API, debounced; a refused or failed call shows
 * nothing), each with a link and, when the tracker takes votes, a button that votes for it instead
 * of filing a new report.
 */

interface Suggestion {
  report_number: number
  title: string
  status: string
  upvotes: number
  url: string
}
interface Answer {
  data?: { bugs: Suggestion[]; can_vote: boolean }
}

const DEBOUNCE_MS = 350
const MIN_CHARS = 4

function make<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v)
  return e
}

function enhance(form: HTMLFormElement): void {
  const api = form.dataset.suggest
  const voteApi = form.dataset.vote
  const title = form.querySelector<HTMLInputElement>('input[name=title]')
  const box = document.getElementById('suggestions')
  const list = box?.querySelector('ul')
  if (!api || !voteApi || !title || !box || !list) return
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight: AbortController | undefined
  let asked = ''

  const voted = (s: Suggestion) => {
    const done = make('div', undefined, { class: 'card', role: 'status' })
    done.append(`Thank you! Your vote was added to #${s.report_number} `, make('a', s.title, { href: s.url }), '. You do not need to send a new report.')
    form.replaceWith(done)
  }

  const show = (bugs: Suggestion[], canVote: boolean) => {
    list.replaceChildren()
    for (const s of bugs) {
      const item = make('li')
      const link = make('a', `#${s.report_number} ${s.title}`, { href: s.url, target: '_blank', rel: 'noopener' })
      item.append(link)
      if (canVote) {
        const button = make('button', 'Vote for this instead', { type: 'button', class: 'btn', 'aria-label': `Vote for #${s.report_number} ${s.title} instead` })
        button.addEventListener('click', async () => {
          button.disabled = true
          try {
            const res = await fetch(`${voteApi}${s.report_number}/vote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' })
            if (!res.ok) throw new Error(String(res.status))
            voted(s)
          } catch {
            button.disabled = false
          }
        })
        item.append(button)
      }
      list.append(item)
    }
    box.hidden = bugs.length === 0
  }

  const ask = async () => {
    const text = title.value.trim()
    if (text === asked) return
    asked = text
    inFlight?.abort()
    if (text.length < MIN_CHARS) return show([], false)
    inFlight = new AbortController()
    try {
      const res = await fetch(`${api}?title=${encodeURIComponent(text.slice(0, 300))}`, { signal: inFlight.signal, credentials: 'same-origin' })
      const answer = (await res.json()) as Answer
      if (res.ok && answer.data) show(answer.data.bugs, answer.data.can_vote)
    } catch {
      // Aborted by newer typing, rate limited or offline: keep what is shown.
    }
  }

  title.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(() => void ask(), DEBOUNCE_MS)
  })
}

document.querySelectorAll<HTMLFormElement>('form[data-suggest]').forEach(enhance)
export {}
