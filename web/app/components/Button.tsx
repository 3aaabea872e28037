import type { ButtonHTMLAttributes, ComponentChildren } from 'preact'

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'loading'> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost'
  size?: 'sm' | 'md'
  /** Shows a spinner and disables the button while an action runs. */
  busy?: boolean
  /** Why the button is disabled (shown as its tooltip and to screen readers). */
  reason?: string
  children?: ComponentChildren
}

/** A real <button>; `type="button"` unless told otherwise so it never submits a form by accident. */
export function Button({ variant = 'secondary', size = 'md', busy, reason, disabled, children, class: cls, type, ...rest }: ButtonProps) {
  const off = Boolean(disabled || busy || reason)
  return (
    <button
      type={type ?? 'button'}
      class={['btn', `btn-${variant}`, size === 'sm' ? 'btn-sm' : '', cls ?? ''].filter(Boolean).join(' ')}
      disabled={off}
      aria-busy={busy || undefined}
      title={reason}
      {...rest}
    >
      {busy && <span class="spinner spinner-inline" aria-hidden="true" />}
      {children}
    </button>
  )
}

/** A link styled as a button (navigation, not an action). */
export function ButtonLink({ href, variant = 'secondary', children, ...rest }: { href: string; variant?: ButtonProps['variant']; children?: ComponentChildren; target?: string; rel?: string; download?: string }) {
  return (
    <a href={href} class={`btn btn-${variant}`} {...rest}>
      {children}
    </a>
  )
}
