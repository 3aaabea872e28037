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

/**
 * A link styled as a button (navigation, not an action). With a `reason` (a permission the member lacks) it is
 * a disabled button saying why, so nobody follows it into a refusal.
 */
export function ButtonLink({ href, variant = 'secondary', reason, children, ...rest }: { href: string; variant?: ButtonProps['variant']; reason?: string; children?: ComponentChildren; target?: string; rel?: string; download?: string }) {
  if (reason) return <Button variant={variant} reason={reason}>{children}</Button>
  return (
    <a href={href} class={`btn btn-${variant}`} {...rest}>
      {children}
    </a>
  )
}
