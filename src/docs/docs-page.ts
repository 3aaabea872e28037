import { startDocs } from './docs-start'

/** Where the page's scripts are served (from the binary; nothing is fetched elsewhere). */
export const DOCS_ASSETS = { scalar: '/docs/assets/scalar.js', start: '/docs/assets/docs.js' }

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
