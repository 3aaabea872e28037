import { el } from './dom'
import { suggestionsUnder } from './suggest'
import { themeFrom, widgetCss, type WidgetTheme } from './theme'

/**
 * Glitchbox's embeddable "Report a bug" widget for web and HTML5 games:
 *   <script src="{public_url}/widget.js" data-project-key="sk_live_…" async></script>
 * Optional `data-canvas="CSS selector"` captures that canvas as the screenshot (shown as a thumbnail
 * the player may remove); `data-game-version="1.4.2"` files reports against that build;
 * `data-button="false"` hides the button (open it with `window.Glitchbox.open()`, which also takes
 * `{ version, player }`). As the title is typed, public reports like it are suggested, and the
 * player may vote for one instead of filing it again. Lives in a shadow root so neither the game's
 * styles nor ours leak across.
 */

const CATEGORIES: [string, string][] = [
  ['gameplay', 'Gameplay'],
  ['crash', 'Crash'],
  ['visual', 'Visual'],
  ['performance', 'Performance'],
  ['audio', 'Audio'],
  ['ui', 'UI'],
  ['network', 'Network'],
  ['other', 'Other'],
]

interface Config {
  origin: string
  key: string
  canvas: string | null
  button: boolean
  version: string | null
}

/** The player as the game names them: an id (a string), or an object with any of id, name and email. */
type Player = string | { id?: string; name?: string; email?: string }

/** What `window.Glitchbox.open()` may be given; each overrides the script tag for that report. */
interface OpenOptions {
  version?: string
  player?: Player
}

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined)

function configFrom(script: HTMLScriptElement): Config | null {
  const key = script.dataset.projectKey
  if (!key) {
    console.error('Glitchbox widget: data-project-key is missing on the script tag')
    return null
  }
  return {
    origin: new URL(script.src, location.href).origin,
    key,
    canvas: script.dataset.canvas ?? null,
    button: script.dataset.button !== 'false',
    version: str(script.dataset.gameVersion, 100) ?? null,
  }
}

/** The canvas as a PNG data URL, or undefined (no such canvas, or tainted by cross-origin images). */
function captureCanvas(selector: string | null): string | undefined {
  if (!selector) return undefined
  const canvas = document.querySelector(selector)
  if (!(canvas instanceof HTMLCanvasElement)) return undefined
  try {
    return canvas.toDataURL('image/png')
  } catch {
    return undefined
  }
}

async function loadTheme(c: Config): Promise<WidgetTheme> {
  try {
    const res = await fetch(`${c.origin}/api/bugs/settings`, { headers: { 'X-API-Key': c.key }, credentials: 'omit' })
    const body = await res.json()
    return themeFrom(res.ok ? body?.data?.widget_theme : null)
  } catch {
    return themeFrom(null)
  }
}

function mount(c: Config, theme: WidgetTheme) {
  const host = el('div', { 'data-glitchbox-widget': '' })
  const root = host.attachShadow({ mode: 'open' })
  const css = widgetCss(theme)
  // A constructed stylesheet is not an inline <style>, so a game page's strict CSP does not block it.
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    root.adoptedStyleSheets = [sheet]
  } else root.append(el('style', {}, css))

  const launcher = el('button', { type: 'button', class: 'launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' }, theme.button_text)
  const backdrop = el('div', { class: 'backdrop' })
  backdrop.hidden = true
  const dialog = el('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'gb-heading' })
  backdrop.append(dialog)
  if (c.button) root.append(launcher)
  root.append(backdrop)
  document.body.append(host)

  let screenshot: string | undefined
  let returnFocus: Element | null = null
  let options: OpenOptions = {}

  const focusables = () => [...dialog.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]')].filter((e) => !e.hasAttribute('disabled'))
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${c.origin}/api${path}`, { ...init, credentials: 'omit', headers: { 'X-API-Key': c.key, ...(init.body ? { 'Content-Type': 'application/json' } : {}) } })
  const player = () => {
    const p = options.player
    return typeof p === 'string' ? { id: str(p, 128) } : { id: str(p?.id, 128), name: str(p?.name, 200), email: str(p?.email, 320) }
  }

  /** The captured screenshot as a thumbnail with a button that drops it from the report. */
  function thumbnail(): HTMLElement {
    const figure = el('figure', { class: 'shot' })
    const img = el('img', { alt: 'Screenshot of the game that will be sent with the report', src: screenshot! })
    const remove = el('button', { type: 'button', class: 'secondary' }, 'Remove screenshot')
    remove.addEventListener('click', () => {
      screenshot = undefined
      figure.replaceWith(el('p', { class: 'hint', role: 'status' }, 'The screenshot will not be sent.'))
      dialog.querySelector<HTMLInputElement>('input')?.focus()
    })
    figure.append(img, remove)
    return figure
  }

  function showForm() {
    dialog.replaceChildren()
    const form = el('form', { novalidate: '' })
    const field = (id: string, label: string, control: HTMLElement) => {
      control.id = id
      form.append(el('label', { for: id }, label), control)
    }
    const title = el('input', { name: 'title', type: 'text', required: '', maxlength: '300', autocomplete: 'off' })
    field('gb-title', 'Title', title)
    form.append(
      suggestionsUnder(title, {
        search: async (text) => {
          const res = await api(`/bugs/similar?title=${encodeURIComponent(text)}`)
          const body = await res.json()
          return res.ok ? (body?.data ?? null) : null
        },
        vote: async (s) => {
          const res = await api('/bugs/vote', { method: 'POST', body: JSON.stringify({ report_number: s.report_number, player_id: player().id }) })
          if (!res.ok) throw new Error(String(res.status))
          showDone(`Your vote was added to #${s.report_number}. You do not need to send a new report.`, s.url)
        },
      }),
    )
    field('gb-description', 'Description', el('textarea', { name: 'description', required: '', maxlength: '50000', placeholder: 'What happened? What did you expect?' }))
    const select = el('select', { name: 'category' })
    for (const [v, l] of CATEGORIES) select.append(el('option', { value: v }, l))
    field('gb-category', 'Category', select)
    const email = el('input', { name: 'email', type: 'email', maxlength: '320', autocomplete: 'email' })
    email.value = player().email ?? ''
    field('gb-email', 'Email (optional)', email)
    if (screenshot) form.append(thumbnail())
    const error = el('p', { class: 'error', role: 'alert' })
    const send = el('button', { type: 'submit', class: 'primary' }, 'Send report')
    const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel')
    cancel.addEventListener('click', close)
    const row = el('div', { class: 'row' })
    row.append(cancel, send)
    form.append(error, row)
    dialog.append(el('h2', { id: 'gb-heading' }, 'Report a bug'), form)
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const data = new FormData(form)
      const title = String(data.get('title') ?? '').trim()
      const description = String(data.get('description') ?? '').trim()
      const email = String(data.get('email') ?? '').trim()
      if (!title || !description) {
        error.textContent = 'Please fill in the title and the description.'
        return
      }
      send.disabled = true
      error.textContent = ''
      const who = player()
      try {
        const res = await api('/bugs/submit', {
          method: 'POST',
          body: JSON.stringify({
            title,
            description,
            category: data.get('category'),
            reporter_email: email || undefined,
            reporter_name: who.name,
            player_id: who.id,
            game_version: str(options.version, 100) ?? c.version ?? undefined,
            screenshot,
            platform: 'web',
            device_info: navigator.userAgent.slice(0, 500),
            metadata: { page_url: location.href.slice(0, 2000), viewport: `${innerWidth}x${innerHeight}` },
          }),
        })
        const body = await res.json().catch(() => null)
        if (!res.ok || !body?.data) throw new Error(body?.error ?? `the server answered ${res.status}`)
        showDone(`Your report was sent as #${body.data.report_number}.`)
      } catch (e) {
        error.textContent = `Could not send the report: ${e instanceof Error ? e.message : String(e)}`
        send.disabled = false
      }
    })
    title.focus()
  }

  function showDone(message: string, link?: string) {
    dialog.replaceChildren()
    const ok = el('button', { type: 'button', class: 'primary' }, 'Close')
    ok.addEventListener('click', close)
    const row = el('div', { class: 'row' })
    row.append(ok)
    const status = el('p', { role: 'status' }, message)
    if (link) status.append(' ', el('a', { href: link, target: '_blank', rel: 'noopener' }, 'See the report'))
    dialog.append(el('h2', { id: 'gb-heading' }, 'Thank you!'), status, row)
    ok.focus()
  }

  function open(o: OpenOptions = {}) {
    if (!backdrop.hidden) return
    options = o && typeof o === 'object' ? o : {}
    // Captured before the dialog shows, so the game's last frame is what gets sent.
    screenshot = captureCanvas(c.canvas)
    returnFocus = document.activeElement
    backdrop.hidden = false
    launcher.setAttribute('aria-expanded', 'true')
    showForm()
  }

  function close() {
    backdrop.hidden = true
    launcher.setAttribute('aria-expanded', 'false')
    dialog.replaceChildren()
    screenshot = undefined
    if (c.button) launcher.focus()
    else if (returnFocus instanceof HTMLElement) returnFocus.focus()
  }

  launcher.addEventListener('click', () => open())
  backdrop.addEventListener('click', (e) => {
    if (e.target === backdrop) close()
  })
  // Escape closes; Tab and Shift+Tab stay inside the dialog while it is open.
  root.addEventListener('keydown', (e) => {
    const event = e as KeyboardEvent
    if (backdrop.hidden) return
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
    } else if (event.key === 'Tab') {
      const items = focusables()
      if (items.length === 0) return
      const first = items[0]!
      const last = items[items.length - 1]!
      const active = root.activeElement
      if (event.shiftKey && (active === first || !dialog.contains(active))) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
        event.preventDefault()
        first.focus()
      }
    }
  })
  return { open, close }
}

declare global {
  interface Window {
    Glitchbox?: { open(options?: OpenOptions): void; close(): void }
  }
}

function start(script: HTMLScriptElement) {
  const c = configFrom(script)
  if (!c) return
  // Calls made before the theme arrives open the widget as soon as it is mounted.
  let pending: OpenOptions | null = null
  window.Glitchbox = { open: (o = {}) => void (pending = o), close: () => void (pending = null) }
  const boot = async () => {
    const api = mount(c, await loadTheme(c))
    window.Glitchbox = api
    if (pending) api.open(pending)
  }
  if (document.body) void boot()
  else document.addEventListener('DOMContentLoaded', () => void boot(), { once: true })
}

const current = document.currentScript
const script = current instanceof HTMLScriptElement ? current : document.querySelector<HTMLScriptElement>('script[data-project-key][src*="widget.js"]')
if (script && !window.Glitchbox) start(script)
