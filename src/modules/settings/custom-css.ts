import type { ChildNode, Root } from 'postcss'

/**
 * The safe subset of CSS a project may put on its public tracker page (`custom_css`). The page embeds
 * it in a <style> element of a page players visit, so it may restyle the page and nothing else:
 * - no `@import` (nor any at-rule outside ALLOWED_AT_RULES): nothing is fetched from elsewhere;
 * - `url()` only with an inline `data:image/(png|jpeg|gif|webp);base64,…` picture, so the page never
 *   calls another server (tracking pixels, fonts that fingerprint, CSS exfiltration by selectors);
 *   `image()`, `image-set()` and `src()`, which take plain strings as URLs, not at all;
 * - no script: `expression(`, `javascript:`/`vbscript:` URLs, `behavior` and `-moz-binding`;
 * - no markup (`<` before a letter, `/`, `!` or `?`): nothing that could close the <style> element.
 * Checks run on the text with CSS escapes decoded (`\75 rl(` is `url(`), as a browser reads it.
 */

const ALLOWED_AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes', 'font-face', 'layer', 'container', 'page'])
const SCRIPT_PROPERTIES = new Set(['behavior', '-moz-binding'])
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i
const URL_FUNCTION = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi
const STRING_URL_FUNCTIONS = /(^|[^a-z0-9_-])(-webkit-image-set|image-set|image|src)\(/i
const SCRIPT_IN_VALUE = /(expression\s*\(|javascript:|vbscript:)/i
const MARKUP = /<[a-z/!?]/i

/** `text` with CSS escapes (`\75 `, `\u`) decoded and comments removed: what the browser's tokenizer sees. */
function unescapeCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => {
      const code = parseInt(hex, 16)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd'
    })
    .replace(/\\(.)/g, '$1')
}

/** What is wrong with one piece of CSS text (a value, at-rule prelude or selector), or null. */
function problemInText(raw: string): string | null {
  const text = unescapeCss(raw)
  const script = SCRIPT_IN_VALUE.exec(text)
  if (script) return `${script[1]!.replace(/\s*\($/, '(').toLowerCase()} is not allowed`
  for (const m of text.matchAll(URL_FUNCTION)) {
    const target = (m[1] ?? m[2] ?? m[3] ?? '').trim()
    if (!DATA_IMAGE.test(target)) return 'url() is only allowed with a data:image (png, jpeg, gif or webp) URL'
  }
  const fn = STRING_URL_FUNCTIONS.exec(text)
  if (fn) return `${fn[2]!.toLowerCase()}() is not allowed`
  return null
}

/** What is wrong with one node (not its children), or null. */
function problemInNode(node: ChildNode): string | null {
  switch (node.type) {
    case 'atrule': {
      const name = unescapeCss(node.name).toLowerCase()
      if (!ALLOWED_AT_RULES.has(name)) return `@${name} is not allowed`
      return problemInText(node.params)
    }
    case 'decl': {
      const prop = unescapeCss(node.prop).toLowerCase()
      if (SCRIPT_PROPERTIES.has(prop)) return `${prop} is not allowed`
      return problemInText(node.value)
    }
    case 'rule':
      return problemInText(node.selector)
    case 'comment':
      return null
  }
}

// postcss (about 7 MB resident) is loaded on the first custom CSS a team saves, not by every server start.
let postcssModule: typeof import('postcss') | undefined
const loadPostcss = () => (postcssModule ??= require('postcss') as typeof import('postcss'))

function parse(css: string): Root | string {
  const { default: postcss, CssSyntaxError } = loadPostcss()
  try {
    return postcss.parse(css)
  } catch (err) {
    if (err instanceof CssSyntaxError) return `is not valid CSS (line ${err.line ?? '?'}: ${err.reason})`
    throw err
  }
}

/** The first reason `css` is outside the safe subset, phrased to follow "custom_css: ", or null when it is safe. */
export function customCssProblem(css: string): string | null {
  if (MARKUP.test(css)) return 'markup (<tag, </ or <!) is not allowed'
  const root = parse(css)
  if (typeof root === 'string') return root
  let problem: string | null = null
  root.walk((node) => {
    problem = problemInNode(node)
    if (problem) return false
  })
  return problem
}

/**
 * `css` reduced to the safe subset, for rendering: every rule, at-rule or declaration that fails the
 * checks is dropped (with what it contains) and `<` is escaped, so even a value stored before these
 * rules existed can neither load anything nor leave its <style> element. Unparsable CSS gives ''.
 */
export function sanitizeCustomCss(css: string): string {
  const root = parse(css)
  if (typeof root === 'string') return ''
  root.walk((node) => {
    if (problemInNode(node)) node.remove()
  })
  return root.toString().replace(/</g, '\\3c ')
}
