import type { ComponentChildren } from 'preact'

export interface Branding {
  /** The project (game) name: the header and the page titles. */
  name: string
  /** The company name from the project's branding, shown as a subtitle ('' when unset or the same as the project's). */
  company: string
  logoUrl: string
  accent: string
}

/** A page's heading with the company as its subtitle. */
export function Heading(p: { title: string; brand: Branding }) {
  return (
    <hgroup>
      <h1>{p.title}</h1>
      {p.brand.company && <p class="subtitle">{p.brand.company}</p>}
    </hgroup>
  )
}

/** A page's `<title>`: its heading, then the company when there is one. */
export const documentTitle = (heading: string, brand: Branding): string => (brand.company ? `${heading} · ${brand.company}` : heading)

export interface PageMeta {
  /** `<title>` and og:title. */
  title: string
  description: string
  /** Absolute URL of the page, for Open Graph. */
  url: string
  /** Absolute URL of an image for Open Graph (the logo), when there is one. */
  image?: string
}

export interface LayoutProps {
  meta: PageMeta
  brand: Branding
  /** Inline stylesheets, each allowed by hash in the CSP. */
  styles: string[]
  /** Script URLs (same origin), loaded deferred. */
  scripts?: string[]
  /** Links of the header nav. */
  nav?: { href: string; label: string; current?: boolean }[]
  /** Alternate links (the changelog's Atom feed). */
  feed?: string
  children: ComponentChildren
}

/** The document around every public page: head with title, description and Open Graph, a branded header, landmarks. */
export function Layout(p: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{p.meta.title}</title>
        <meta name="description" content={p.meta.description} />
        <meta property="og:type" content="website" />
        <meta property="og:title" content={p.meta.title} />
        <meta property="og:description" content={p.meta.description} />
        <meta property="og:url" content={p.meta.url} />
        <meta property="og:site_name" content={p.brand.company || p.brand.name} />
        {p.meta.image && <meta property="og:image" content={p.meta.image} />}
        <meta name="theme-color" content={p.brand.accent} />
        {p.feed && <link rel="alternate" type="application/atom+xml" title={`${p.brand.name} changelog`} href={p.feed} />}
        {p.styles.map((css) => (
          <style dangerouslySetInnerHTML={{ __html: css }} />
        ))}
        {p.scripts?.map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <div class="in">
            {p.brand.logoUrl && <img src={p.brand.logoUrl} alt="" />}
            <span class="brand">{p.brand.name}</span>
            {p.nav && p.nav.length > 0 && (
              <nav aria-label="Public pages">
                {p.nav.map((n) => (
                  <a href={n.href} aria-current={n.current ? 'page' : undefined}>
                    {n.label}
                  </a>
                ))}
              </nav>
            )}
          </div>
        </header>
        <main id="main">{p.children}</main>
        <footer class="site">
          <small>Powered by Glitchbox</small>
        </footer>
      </body>
    </html>
  )
}
