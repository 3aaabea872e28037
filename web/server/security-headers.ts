/**
 * Security headers for every HTML page the server renders (public pages, the dashboard shell, 404s).
 * Scripts only from this origin (no `unsafe-inline`); inline <style> elements only by their SHA-256
 * hash (the public pages' stylesheet and the tracker's custom CSS) or by the response's nonce (the API
 * docs); no page may be framed.
 */

/** The CSP source expression allowing one inline <style> element whose text is exactly `css`. */
export function styleHashSource(css: string): string {
  return `'sha256-${new Bun.CryptoHasher('sha256').update(css).digest('base64')}'`
}

export interface HtmlHeaderOptions {
  /** Inline <style> texts the page carries; each is allowed by its hash. */
  inlineStyles?: string[]
  /** A fresh random value per response: <style> elements carrying it are allowed (those the API docs viewer creates at run time). */
  styleNonce?: string
  /** Defaults to `no-cache`: pages change with every vote and report. */
  cacheControl?: string
  /** Other origins the page may load scripts, frames and styles from and connect to (the dashboard's Google/Apple sign-in, when configured). */
  thirdParty?: ThirdPartySources
}

export interface ThirdPartySources {
  scripts: string[]
  frames: string[]
  styles: string[]
  connect: string[]
}

/** The origins Google Identity Services and Sign in with Apple JS need, for the sign-ins that are configured. */
export function socialSignInSources(o: { google: boolean; apple: boolean }): ThirdPartySources {
  const google = o.google ? ['https://accounts.google.com/gsi/'] : []
  const apple = o.apple ? ['https://appleid.cdn-apple.com'] : []
  return {
    scripts: [...(o.google ? ['https://accounts.google.com/gsi/client'] : []), ...apple],
    frames: [...google, ...(o.apple ? ['https://appleid.apple.com'] : [])],
    styles: o.google ? ['https://accounts.google.com/gsi/style'] : [],
    connect: [...google, ...(o.apple ? ['https://appleid.apple.com'] : [])],
  }
}

/** The headers of an HTML page: CSP, nosniff, referrer policy, no framing, and `text/html`. */
export function htmlSecurityHeaders(opts: HtmlHeaderOptions = {}): Record<string, string> {
  const extra = opts.thirdParty ?? { scripts: [], frames: [], styles: [], connect: [] }
  const styles = ["'self'", ...(opts.inlineStyles ?? []).map(styleHashSource), ...(opts.styleNonce ? [`'nonce-${opts.styleNonce}'`] : []), ...extra.styles]
  const csp = [
    "default-src 'self'",
    ["script-src 'self'", ...extra.scripts].join(' '),
    `style-src ${styles.join(' ')}`,
    // Logos and avatars are http(s) URLs the studio chose; images cannot run code.
    "img-src 'self' data: https: http:",
    ["connect-src 'self'", ...extra.connect].join(' '),
    ...(extra.frames.length ? [`frame-src ${extra.frames.join(' ')}`] : []),
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'cache-control': opts.cacheControl ?? 'no-cache',
  }
}
