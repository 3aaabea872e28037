import type { ComponentChildren } from 'preact'
import { render } from 'preact-render-to-string'
import { type Branding, Layout, type PageMeta } from '../public-pages/layout'
import { pageStyles, safeColor, safeCustomCss } from '../public-pages/styles'
import { htmlSecurityHeaders } from './security-headers'
import { voteScriptUrl } from './static-assets'

/** The brand of pages that belong to no project (errors, the reply-mail unsubscribe page). */
export const DEFAULT_BRAND: Branding = { name: 'Glitchbox', company: '', logoUrl: '', accent: safeColor('') }

export interface PageOptions {
  status?: number
  meta: PageMeta
  brand: Branding
  customCss?: string
  withVoteScript?: boolean
  nav?: { href: string; label: string; current?: boolean }[]
  feed?: string
  /** A Set-Cookie header: the voter cookie of a browser that has none yet. */
  setCookie?: string
}

/** A public page's response: the layout around `body`, its inline styles allowed by hash, the security headers. */
export async function publicPage(o: PageOptions, body: ComponentChildren): Promise<Response> {
  const styles = [pageStyles(o.brand.accent)]
  if (o.customCss) styles.push(safeCustomCss(o.customCss))
  const scripts = o.withVoteScript ? [await voteScriptUrl()] : []
  const html = render(
    <Layout meta={o.meta} brand={o.brand} styles={styles} scripts={scripts} nav={o.nav} feed={o.feed}>
      {body}
    </Layout>,
  )
  const headers: Record<string, string> = htmlSecurityHeaders({ inlineStyles: styles })
  if (o.setCookie) headers['set-cookie'] = o.setCookie
  return new Response(`<!doctype html>${html}`, { status: o.status ?? 200, headers })
}
