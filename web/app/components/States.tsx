import type { ComponentChildren, JSX } from 'preact'
import type { Resource } from '../api/resource'
import { Button } from './Button'

/** A spinner with a text for screen readers. */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}
export const Loading = Spinner

/** Nothing to show yet, and what to do about it. */
export function EmptyState({ title, children, action }: { title: string; children?: ComponentChildren; action?: ComponentChildren }) {
  return (
    <div class="empty">
      <h3>{title}</h3>
      {children && <div class="muted">{children}</div>}
      {action && <div class="empty-action">{action}</div>}
    </div>
  )
}

/** A failed load: the server's message as it is, and a retry. */
export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message: string; onRetry?: () => void }) {
  return (
    <div class="error-state" role="alert">
      <h3>{title}</h3>
      <p>{message}</p>
      {onRetry && <Button onClick={onRetry}>Try again</Button>}
    </div>
  )
}

/**
 * Renders a resource: spinner on first load, ErrorState with retry on failure (404 and 403 get their own titles),
 * the `empty` element when `isEmpty(data)`, else `children(data)`.
 */
export function Async<T>({
  resource,
  children,
  empty,
  isEmpty,
  label,
}: {
  resource: Resource<T>
  children: (data: T) => ComponentChildren
  empty?: JSX.Element
  isEmpty?: (data: T) => boolean
  label?: string
}) {
  const data = resource.data.value
  const error = resource.error.value
  if (error && data === undefined) {
    const title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Not available to you' : 'Could not load this'
    return <ErrorState title={title} message={error.message} onRetry={error.status === 404 || error.status === 403 ? undefined : () => void resource.reload()} />
  }
  if (data === undefined) return <Spinner label={label} />
  if (empty && (isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0)) return empty
  return <>{children(data)}</>
}

/** A small colored tag. */
export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'info' | 'success' | 'warning' | 'danger'; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>
}
