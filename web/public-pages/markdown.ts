import MarkdownIt from 'markdown-it'

/**
 * Markdown for changelog entries, rendered safely: raw HTML is escaped (`html: false`) and links and
 * images only keep http(s) and mailto URLs (markdown-it already drops javascript:, vbscript: and
 * data: links; this narrows it to the schemes a changelog needs).
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false })
const ALLOWED = /^(?:https?:|mailto:)/i
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

/** The HTML of a changelog body. */
export const renderMarkdown = (body: string): string => md.render(body)
