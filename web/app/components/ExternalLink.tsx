import type { ComponentChildren } from 'preact'

/**
 * Whether `href` is an absolute http(s) URL. The server stores no other kind (src/net/web-url.ts);
 * the dashboard checks again because a `javascript:` link runs in the signed-in member's session.
 */
export function isWebHref(href: string | null | undefined): href is string {
  if (!href || !/^https?:\/\//i.test(href)) return false
  try {
    return new URL(href).hostname !== ''
  } catch {
    return false
  }
}

/** A link to another site (a tracker issue, a repository, a store page), opened in a new tab; anything but an http(s) URL is shown as plain text. */
export function ExternalLink({ href, children }: { href: string | null | undefined; children?: ComponentChildren }) {
  if (!isWebHref(href)) return <span>{children}</span>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}
