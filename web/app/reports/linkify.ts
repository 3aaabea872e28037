/** A piece of comment text: plain text, or a link to show as an anchor. Rendered as text nodes, never as HTML. */
export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

// Only web links become anchors: `javascript:`, `data:` and the like stay plain text.
const URL_START = /\b(?:https?:\/\/|www\.)/gi
// Characters that end a link when they close it rather than belong to it.
const TRAILING = /[.,;:!?'"*_~]$/
const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' }

/** The link that starts at `text[from]`: up to whitespace or `<`, then trailing punctuation and unbalanced closers trimmed. */
function linkAt(text: string, from: number): string {
  let end = from
  while (end < text.length && !/[\s<>"]/.test(text[end]!)) end++
  let link = text.slice(from, end)
  for (;;) {
    const last = link.at(-1)
    if (last === undefined) break
    if (TRAILING.test(last)) {
      link = link.slice(0, -1)
      continue
    }
    const open = PAIRS[last]
    if (open && link.split(open).length - 1 < link.split(last).length - 1) {
      link = link.slice(0, -1)
      continue
    }
    break
  }
  return link
}

/** A safe href for `link`, or null when it is not a usable http(s) URL. */
function hrefOf(link: string): string | null {
  const candidate = /^www\./i.test(link) ? `https://${link}` : link
  try {
    const url = new URL(candidate)
    const web = url.protocol === 'http:' || url.protocol === 'https:'
    const host = url.hostname.includes('.') || url.hostname === 'localhost'
    return web && host ? url.href : null
  } catch {
    return null
  }
}

/** Splits `text` into plain text and http(s) links (also `www.` addresses), for rendering as text nodes and anchors. */
export function linkify(text: string): TextSegment[] {
  const out: TextSegment[] = []
  let plainFrom = 0
  const pushText = (to: number) => {
    if (to > plainFrom) {
      const prev = out.at(-1)
      const piece = text.slice(plainFrom, to)
      if (prev?.kind === 'text') prev.text += piece
      else out.push({ kind: 'text', text: piece })
    }
  }
  for (const m of text.matchAll(URL_START)) {
    if (m.index < plainFrom) continue
    // `foo.www.example.com` or `xhttps://`: the match is inside a word, not the start of a link.
    if (m.index > 0 && /[\p{L}\p{N}.@/-]/u.test(text[m.index - 1]!)) continue
    const link = linkAt(text, m.index)
    const href = hrefOf(link)
    if (!href || link.length <= m[0].length) continue
    pushText(m.index)
    out.push({ kind: 'link', text: link, href })
    plainFrom = m.index + link.length
  }
  pushText(text.length)
  return out
}
