import type MarkdownItConstructor from 'markdown-it'

type MarkdownIt = InstanceType<typeof MarkdownItConstructor>

/**
 * Markdown for changelog entries, rendered safely: raw HTML is escaped (`html: false`) and links and
 * images only keep http(s) and mailto URLs (markdown-it already drops javascript:, vbscript: and
 * data: links; this narrows it to the schemes a changelog needs).
 */
const ALLOWED = /^(?:https?:|mailto:)/i

function createRenderer(): MarkdownIt {
  const Markdown = require('markdown-it') as typeof MarkdownItConstructor
  const md = new Markdown({ html: false, linkify: true, typographer: false })
  md.validateLink = (url: string) => {
    const u = url.trim()
    // Relative links (to this site) have no scheme; anything with a scheme must be an allowed one.
    return ALLOWED.test(u) || !/^[a-z][a-z0-9+.-]*:/i.test(u)
  }
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer')
    return defaultLinkOpen(tokens, idx, options, env, self)
  }
  return md
}

// Built on the first changelog rendered, so a server whose studio never publishes one does not keep markdown-it resident.
let renderer: MarkdownIt | undefined

/** The HTML of a changelog body. */
export const renderMarkdown = (body: string): string => (renderer ??= createRenderer()).render(body)
