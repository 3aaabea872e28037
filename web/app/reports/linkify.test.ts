import { describe, expect, it } from 'vitest'
import { linkify } from './linkify'

describe('linkify', () => {
  it('plain text stays one text segment', () => {
    expect(linkify('no links here <b>bold</b>')).toEqual([{ kind: 'text', text: 'no links here <b>bold</b>' }])
    expect(linkify('')).toEqual([])
  })

  it('finds http(s) links among text', () => {
    expect(linkify('see https://example.com/a?b=1#c and http://x.io')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.io', href: 'http://x.io/' },
    ])
  })

  it('www. addresses link to https', () => {
    expect(linkify('www.example.org')).toEqual([{ kind: 'link', text: 'www.example.org', href: 'https://www.example.org/' }])
  })

  it('trailing punctuation and unbalanced closers end the link', () => {
    expect(linkify('(see https://ex.com/wiki/A_(b)).')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', text: 'https://ex.com/wiki/A_(b)', href: 'https://ex.com/wiki/A_(b)' },
      { kind: 'text', text: ').' },
    ])
    expect(linkify('Go to https://ex.com, then "https://ex.com/x".').map((s) => s.text)).toEqual(['Go to ', 'https://ex.com', ', then "', 'https://ex.com/x', '".'])
  })

  it('never links other schemes', () => {
    for (const t of ['javascript:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:msgbox', 'file:///etc/passwd']) {
      expect(linkify(t)).toEqual([{ kind: 'text', text: t }])
    }
  })

  it('stops a link at markup so an attribute cannot be smuggled in', () => {
    const segs = linkify('https://ex.com/"onmouseover="alert(1)<script>')
    expect(segs[0]).toEqual({ kind: 'link', text: 'https://ex.com/', href: 'https://ex.com/' })
    expect(segs.slice(1).every((s) => s.kind === 'text')).toBe(true)
  })

  it('does not link a scheme glued to a word or a bare scheme', () => {
    expect(linkify('xhttps://ex.com')).toEqual([{ kind: 'text', text: 'xhttps://ex.com' }])
    expect(linkify('https:// nothing')).toEqual([{ kind: 'text', text: 'https:// nothing' }])
  })

  it('joins the segments back into the original text', () => {
    const t = 'a https://a.b/c. b www.x.y) c http://localhost:3000/p!'
    expect(linkify(t).map((s) => s.text).join('')).toBe(t)
  })
})
