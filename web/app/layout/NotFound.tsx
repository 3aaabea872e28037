import { EmptyState } from '../components'

/** A dashboard URL that matches no screen. */
export function NotFound() {
  return (
    <EmptyState title="Page not found" action={<a href="/">Go to your projects</a>}>
      This address does not match any page of the dashboard.
    </EmptyState>
  )
}
