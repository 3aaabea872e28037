// Issue 21 item 8 in a real browser: a player uploads text declared as text/javascript or text/css,
// and a `<script src>` or stylesheet pointing at it is added to the dashboard by hand (as an injection
// would). The CSP allows scripts from this origin, so only the served type keeps them from running.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeBrowser, startBrowser, type BrowserHarness } from './harness'

const SCRIPT = 'window.__uploadRan = true'
const STYLE = 'body { outline: 7px solid rgb(1, 2, 3) }'

describeBrowser('an uploaded script or stylesheet added to the dashboard', () => {
  let h: BrowserHarness
  let scriptUrl: string
  let styleUrl: string
  beforeAll(async () => {
    h = await startBrowser()
    const me = await h.signUp()
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Script Kiddie Kart' } })
    const apiKey = project.body.data.api_key
    const report = await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: 'Look at my files', description: 'attached' } })
    const upload = async (filename: string, mime_type: string, text: string) => {
      const res = await h.api('POST', `/api/bugs/${report.body.data.id}/attachments`, { apiKey, body: { filename, mime_type, data: Buffer.from(text).toString('base64') } })
      expect(res.status).toBe(201)
      return new URL(res.body.data.file_url).pathname
    }
    scriptUrl = await upload('cheat.js', 'text/javascript', SCRIPT)
    styleUrl = await upload('skin.css', 'text/css', STYLE)
    await h.page.goto(`${h.baseUrl}/`)
    await h.page.getByRole('link', { name: 'Script Kiddie Kart' }).first().waitFor()
  })
  afterAll(() => h?.close())

  /** Adds a <script src> or <link rel=stylesheet> to the page and reports whether it loaded. */
  const inject = (kind: 'script' | 'style', url: string) =>
    h.page.evaluate(
      ([kind, url]) =>
        new Promise<string>((resolve) => {
          const el = kind === 'script' ? Object.assign(document.createElement('script'), { src: url }) : Object.assign(document.createElement('link'), { rel: 'stylesheet', href: url })
          el.onload = () => resolve('load')
          el.onerror = () => resolve('error')
          document.head.append(el)
        }),
      [kind, url] as const,
    )

  it('does not run the script, while a script of the server itself added the same way does', async () => {
    expect(await inject('script', '/widget.js')).toBe('load')
    expect(await inject('script', scriptUrl)).toBe('error')
    expect(await h.page.evaluate(() => (window as unknown as { __uploadRan?: boolean }).__uploadRan ?? false)).toBe(false)
  })

  it('does not apply the stylesheet', async () => {
    expect(await inject('style', styleUrl)).toBe('error')
    expect(await h.page.evaluate(() => getComputedStyle(document.body).outlineColor)).not.toBe('rgb(1, 2, 3)')
  })
})
