import type { ComponentChildren } from 'preact'
import { useMemo, useState } from 'preact/hooks'
import { foldTrace, traceLines, type TraceLine } from './stack-trace'

/**
 * A block of code-like text (a trace, logs) that scrolls inside itself: focusable so the keyboard
 * scrolls it too, and named for screen readers.
 */
export function CodeText({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <pre class="code-block" tabIndex={0} aria-label={label}>
      <code>{children}</code>
    </pre>
  )
}

const lineOf = (l: TraceLine, i: number) =>
  l.inApp ? (
    <strong key={i} class="frame-app">
      {l.text}
      {'\n'}
    </strong>
  ) : (
    <span key={i} class={l.kind === 'other' ? undefined : 'frame-other'}>
      {l.text}
      {'\n'}
    </span>
  )

/**
 * A stack trace with the game's own frames in bold and each run of engine and system frames folded
 * behind a button ("3 more frames: engine and system code") that unfolds it in place.
 */
export function StackTrace({ text }: { text: string }) {
  const segments = useMemo(() => foldTrace(traceLines(text)), [text])
  const [open, setOpen] = useState<Set<number>>(new Set())
  const folded = segments.filter((s) => s.folded).length
  const allOpen = folded > 0 && open.size === folded
  const toggleAll = () => setOpen(allOpen ? new Set() : new Set(segments.flatMap((s, i) => (s.folded ? [i] : []))))
  return (
    <div class="stack-trace">
      <div class="spread">
        <h3>Stack trace</h3>
        {folded > 0 && (
          <button type="button" class="linklike small" aria-pressed={allOpen} onClick={toggleAll}>
            {allOpen ? 'Fold engine and system frames' : 'Show all frames'}
          </button>
        )}
      </div>
      <CodeText label="Stack trace">
        {text.trim() === ''
          ? '(empty)'
          : segments.map((s, i) =>
              !s.folded || open.has(i) ? (
                s.lines.map((l, j) => lineOf(l, i * 100_000 + j))
              ) : (
                <span key={i}>
                  <button type="button" class="frame-fold" aria-expanded="false" onClick={() => setOpen((o) => new Set(o).add(i))}>
                    {`⋯ ${s.frames} more frames: engine and system code`}
                  </button>
                  {'\n'}
                </span>
              ),
            )}
      </CodeText>
    </div>
  )
}
