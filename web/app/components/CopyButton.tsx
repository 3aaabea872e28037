import { useState } from 'preact/hooks'

/** Copies a text to the clipboard; says "Copied" for a moment. `label` names what is copied for screen readers. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'ok' | 'fail' | null>(null)
  const copy = async () => {
    setDone((await writeClipboard(text)) ? 'ok' : 'fail')
    setTimeout(() => setDone(null), 1500)
  }
  return (
    <button type="button" class="btn btn-secondary btn-sm" onClick={copy} aria-label={label}>
      <span>{done === 'ok' ? 'Copied' : done === 'fail' ? 'Copy failed' : 'Copy'}</span>
      <span class="sr-only" role="status">
        {done === 'ok' ? 'Copied to the clipboard' : ''}
      </span>
    </button>
  )
}

/**
 * Writes to the clipboard. `navigator.clipboard` exists only in secure contexts (https or localhost); a server
 * reached over plain http on a LAN address falls back to a selected textarea and `execCommand('copy')`.
 */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // fall through to the textarea
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'sr-only'
  document.body.append(area)
  area.select()
  let ok = false
  try {
    ok = document.execCommand('copy')
  } catch {
    ok = false
  }
  area.remove()
  return ok
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
