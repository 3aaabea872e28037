import { startDocs } from './docs-start'

/** Where the page's scripts are served (from the binary; nothing is fetched elsewhere). */
export const DOCS_ASSETS = { scalar: '/docs/assets/scalar.js', start: '/docs/assets/docs.js' }

/**
 * Scalar's default theme with text colours that reach WCAG AA (4.5:1) on its backgrounds: its HTTP
 * method colours, muted greys and string highlighting fall to 1.6–4.4:1 (axe rated it serious, about
 * 400 elements). Same hues, darker in the light theme and lighter in the dark one.
 */
const DOCS_CONTRAST_CSS = `
.light-mode {
  --scalar-color-2: #616161; --scalar-color-3: #646464;
  --scalar-color-blue: #0068a8; --scalar-color-green: #00784c; --scalar-color-red: #c80000;
  --scalar-color-yellow: #7a5c00; --scalar-color-orange: #b53d00;
}
.dark-mode { --scalar-color-3: #a0a0a0; --scalar-color-red: #ff7070; }
`

/**
 * Scalar's viewer, configured to stay on this server: no Scalar agent ("Ask AI", whose registry calls
 * went through proxy.scalar.com on every load), no developer toolbar (Configure, Share, Deploy), no
 * link to Scalar's hosted client, no telemetry, no web fonts. "Test Request" stays: it calls this server.
 */
export const SCALAR_CONFIG = {
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  telemetry: false,
  withDefaultFonts: false,
  documentDownloadType: 'json',
  theme: 'default',
  customCss: DOCS_CONTRAST_CSS,
}

/** The page's first script: startDocs (see docs-start.ts) called with the viewer's configuration. */
export function docsStartScript(specPath: string): string {
  return `'use strict';\n(${startDocs.toString()})(${JSON.stringify({ url: specPath, ...SCALAR_CONFIG })});\n`
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The /docs page: no inline script or style; `nonce` is the one this response's CSP gives to styles. */
export function docsPageHtml(o: { title: string; description: string; nonce: string }): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(o.title)}</title>
    <meta name="description" content="${escapeHtml(o.description)}">
    <meta name="glitchbox-style-nonce" content="${o.nonce}">
    <script src="${DOCS_ASSETS.start}"></script>
    <script src="${DOCS_ASSETS.scalar}"></script>
  </head>
  <body>
    <div id="api-reference"></div>
  </body>
</html>
`
}
