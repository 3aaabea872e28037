import type { ComponentChildren } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { Button } from './Button'
import { useAction } from './use-action'

/**
 * A modal dialog on the native <dialog> element: `showModal()` makes the rest of the page inert (the focus stays
 * inside), Escape closes it, and the focus returns to the element that opened it.
 */
export function Dialog({ open, title, onClose, children, footer, wide }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; footer?: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<Element | null>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (open && !d.open) {
      opener.current = document.activeElement
      d.showModal()
      const first = d.querySelector<HTMLElement>('[autofocus], input:not([disabled]), select, textarea, button:not(.dialog-close)')
      first?.focus()
    } else if (!open && d.open) {
      d.close()
      ;(opener.current as HTMLElement | null)?.focus?.()
    }
  }, [open])
  return (
    <dialog
      ref={ref}
      class={`dialog${wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      {open && (
        <div class="dialog-body">
          <header class="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" class="dialog-close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          <div class="dialog-content">{children}</div>
          {footer && <footer class="dialog-footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  )
}

/**
 * Asks before a destructive action. With `typed`, the confirm button stays disabled until that exact text is
 * typed (e.g. `DELETE` or the project's slug).
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Confirm',
  typed,
  danger = true,
  onConfirm,
  onClose,
}: {
  open: boolean
  title: string
  message: ComponentChildren
  confirmLabel?: string
  typed?: string
  danger?: boolean
  onConfirm: () => Promise<void> | void
  onClose: () => void
}) {
  const [text, setText] = useState('')
  const { busy, error, setError, run } = useAction(async () => {
    await onConfirm()
    onClose()
  })
  const inputId = useId()
  useEffect(() => {
    if (open) {
      setText('')
      setError(null)
    }
  }, [open])
  const ready = !typed || text === typed
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant={danger ? 'danger' : 'primary'} disabled={!ready} busy={busy} onClick={run}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div class="stack">
        <div>{message}</div>
        {typed && (
          <div class="field">
            <label for={inputId}>
              Type <code>{typed}</code> to confirm
            </label>
            <input
              id={inputId}
              value={text}
              autoComplete="off"
              spellcheck={false}
              onInput={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && ready && !busy) void run()
              }}
            />
          </div>
        )}
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  )
}
