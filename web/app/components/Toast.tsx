import { signal } from '@preact/signals'

type ToastItem = { id: number; message: string; tone: 'info' | 'success' | 'error' }
export const toasts = signal<ToastItem[]>([])
let next = 1

/** Shows a short message for a few seconds (errors stay longer). */
export function toast(message: string, tone: ToastItem['tone'] = 'success'): void {
  const id = next++
  toasts.value = [...toasts.value, { id, message, tone }]
  setTimeout(() => dismiss(id), tone === 'error' ? 8000 : 4000)
}

function dismiss(id: number) {
  toasts.value = toasts.value.filter((t) => t.id !== id)
}

/** The live region the toasts appear in; mounted once by the app. */
export function Toasts() {
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.value.map((t) => (
        <div key={t.id} class={`toast toast-${t.tone}`}>
          <span>{t.message}</span>
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
