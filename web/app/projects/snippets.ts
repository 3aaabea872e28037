/** Copy-ready snippets that point a game (or a shell) at this server. Pure: the origin and key are passed in. */

/** Quotes a string for a POSIX shell (single quotes, with embedded ones escaped). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

/** The curl request that files a report through the SDK route. */
export function curlSubmit(origin: string, apiKey: string): string {
  const body = JSON.stringify({
    title: 'Player falls through the floor',
    description: 'After the second checkpoint the player drops through the level.',
    category: 'gameplay',
    priority: 'high',
    platform: 'Windows',
    game_version: '1.0.0',
  })
  return [
    `curl -X POST ${shellQuote(`${origin}/api/bugs/submit`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`X-API-Key: ${apiKey}`)} \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n')
}

/** The raw HTTP request, for engines whose HTTP client is set up by hand. */
export function httpSubmit(origin: string, apiKey: string): string {
  const url = new URL('/api/bugs/submit', origin)
  return [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    'Content-Type: application/json',
    `X-API-Key: ${apiKey}`,
    '',
    JSON.stringify({ title: 'Player falls through the floor', description: 'After the second checkpoint the player drops through the level.', category: 'gameplay' }, null, 2),
  ].join('\n')
}

/** The two settings every engine SDK needs, as a JSON config file. */
export function sdkConfig(origin: string, apiKey: string): string {
  return JSON.stringify({ base_url: origin, api_key: apiKey }, null, 2)
}

/** The script tag of the web widget (HTML5 games), with the optional attributes explained above it. */
export function widgetTag(origin: string, apiKey: string): string {
  return [
    '<!-- data-canvas: a CSS selector of your game\'s <canvas>, sent as the screenshot (WebGL needs preserveDrawingBuffer: true).',
    '     data-game-version: the build players run. Open it from your own menu with window.Glitchbox.open({ version, player }). -->',
    `<script src="${origin}/widget.js" data-project-key="${apiKey}" data-canvas="#game" data-game-version="1.0.0" async></script>`,
  ].join('\n')
}
