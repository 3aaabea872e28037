import { useState } from 'preact/hooks'
import { CodeText } from './StackTrace'

/** How many threads a native crash's other-threads section lists: its `Thread <id>` headings. */
export const threadCount = (text: string) => (text.match(/^Thread \S+[ \t]*$/gm) ?? []).length

/**
 * A native crash's other threads, folded behind one button ("3 other threads") that unfolds them in
 * place under the crashed thread's stack: they matter for a deadlock or a race, and are noise otherwise.
 */
export function OtherThreads({ text }: { text: string }) {
  const [open, setOpen] = useState(false)
  const count = threadCount(text)
  return (
    <div class="other-threads">
      <button type="button" class="frame-fold" aria-expanded={open} aria-controls="other-threads" onClick={() => setOpen((o) => !o)}>
        {`${open ? '▾' : '▸'} ${count} other ${count === 1 ? 'thread' : 'threads'}`}
      </button>
      {open && (
        <div id="other-threads">
          <CodeText label="Other threads">{text}</CodeText>
        </div>
      )}
    </div>
  )
}
