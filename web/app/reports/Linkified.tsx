import { linkify } from './linkify'

/** User text with its web links clickable: text nodes and anchors only, never markup from the text itself. */
export function Linkified({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((s, i) =>
        s.kind === 'link' ? (
          <a key={i} href={s.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {s.text}
          </a>
        ) : (
          s.text
        ),
      )}
    </>
  )
}
