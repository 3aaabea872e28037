import { useState } from 'preact/hooks'

/** Copies a text to the clipboard; says "Copied" for a moment. `label` names what is copied for screen readers. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'ok' | 'fail' | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setDone('ok')
    } catch {
      setDone('fail')
    }
    setTimeout(() => setDone(null), 1500)
  }
  return (
    <button type="button" class="btn btn-secondary btn-sm" onClick={copy} aria-label={label}>
      {done === 'ok' ? 'Copied' : done === 'fail' ? 'Copy failed' : 'Copy'}
      <span class="sr-only" role="status">
        {done === 'ok' ? 'Copied to the clipboard' : ''}
      </span>
    </button>
  )
}

/** A code block with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div class="codeblock">
      <pre tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy ${label}`} />
    </div>
  )
}
