import { Page } from '../components'

/** A dashboard URL that matches no screen: the page's heading and title say so, with a way back. */
export function NotFound() {
  return (
    <Page title="Page not found">
      <div class="empty">
        <p class="muted">This address does not match any page of the dashboard.</p>
        <div class="empty-action">
          <a href="/">Go to your projects</a>
        </div>
      </div>
    </Page>
  )
}
