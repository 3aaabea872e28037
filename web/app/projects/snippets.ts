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

/** The URL Unreal's own crash reporter posts to (`DataRouterUrl`): the DSN's server, `/api/{dsn_id}/unreal/{key}/`. */
export function unrealCrashUrl(dsn: string): string {
  const url = new URL(dsn)
  const key = decodeURIComponent(url.username)
  const parts = url.pathname.replace(/\/+$/, '').split('/')
  const dsnId = parts.pop()!
  return `${url.protocol}//${url.host}${parts.join('/')}/api/${dsnId}/unreal/${encodeURIComponent(key)}/`
}

/** Sentry's Unity SDK: the DSN in Tools → Sentry, or in code through an options configuration. */
export function unitySentry(dsn: string): string {
  return [
    '// Tools → Sentry → Core: DSN (saved in Assets/Resources/Sentry/SentryOptions.asset),',
    '// or in code: an options configuration set in Tools → Sentry → Options Config.',
    'using Sentry.Unity;',
    '',
    'public class SentryOptionConfiguration : SentryOptionsConfiguration',
    '{',
    '    public override void Configure(SentryUnityOptions options)',
    '    {',
    `        options.Dsn = ${JSON.stringify(dsn)};`,
    '        options.AutoSessionTracking = true; // sessions for crash-free rates',
    '    }',
    '}',
  ].join('\n')
}

/** Sentry's Unreal plugin (Project Settings → Plugins → Sentry) and Unreal's own crash reporter, in Config/DefaultEngine.ini. */
export function unrealSentry(dsn: string): string {
  return [
    '; Config/DefaultEngine.ini',
    '; The Sentry plugin (Project Settings → Plugins → Sentry → DSN):',
    '[/Script/Sentry.SentrySettings]',
    'InitAutomatically=True',
    `Dsn="${dsn}"`,
    '',
    "; Or Unreal's own crash reporter, without a plugin (crashes with their minidump and log):",
    '[CrashReportClient]',
    'CrashReportClientVersion=1.0',
    `DataRouterUrl="${unrealCrashUrl(dsn)}"`,
  ].join('\n')
}

/** sentry-godot: Project Settings → Sentry → Options, as saved in project.godot. */
export function godotSentry(dsn: string): string {
  return ['; project.godot (Project Settings → Sentry → Options)', '[sentry]', '', `options/dsn=${JSON.stringify(dsn)}`, 'options/release="my-game@1.0.0"'].join('\n')
}

/** @sentry/browser for HTML5 games (sessions are sent by default). */
export function javascriptSentry(dsn: string): string {
  return ["import * as Sentry from '@sentry/browser'", '', 'Sentry.init({', `  dsn: ${JSON.stringify(dsn)},`, "  release: 'my-game@1.0.0',", '})'].join('\n')
}

/** Play sessions through the SDK routes: start when the game starts, end when it quits (crashed or not). */
export function sessionsCurl(origin: string, apiKey: string): string {
  const start = JSON.stringify({ api_key: apiKey, session_token: 'a-random-id-per-run', player_id: 'player-42', game_version: '1.0.0', platform: 'Windows' })
  const end = JSON.stringify({ api_key: apiKey, session_token: 'a-random-id-per-run', crashed: false })
  return [
    `curl -X POST ${shellQuote(`${origin}/api/sessions/start`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(start)}`,
    '',
    `curl -X POST ${shellQuote(`${origin}/api/sessions/end`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(end)}`,
  ].join('\n')
}

/** What a snippet is made from: this server's origin, the SDK key and the Sentry DSN (null when the project has none). */
export interface SnippetContext {
  origin: string
  apiKey: string
  dsn: string | null
}

export interface Snippet {
  key: string
  /** Where the setup page shows it: the ways to point a game at this server, or the session calls. */
  group: 'sentry' | 'glitchbox' | 'sessions'
  /** The tab's label. */
  label: string
  /** What its code block is called (for screen readers and the copy button). */
  name: string
  code: (c: SnippetContext) => string
}

const withDsn = (f: (dsn: string) => string) => (c: SnippetContext) => (c.dsn ? f(c.dsn) : 'This project has no DSN yet.')

/** Every snippet of the setup page, in the order of its tabs. */
export const SNIPPETS: Snippet[] = [
  { key: 'unity', group: 'sentry', label: 'Unity', name: 'Unity Sentry options', code: withDsn(unitySentry) },
  { key: 'unreal', group: 'sentry', label: 'Unreal', name: 'Unreal DefaultEngine.ini', code: withDsn(unrealSentry) },
  { key: 'godot', group: 'sentry', label: 'Godot', name: 'Godot project settings', code: withDsn(godotSentry) },
  { key: 'javascript', group: 'sentry', label: 'JavaScript', name: 'JavaScript Sentry init', code: withDsn(javascriptSentry) },
  { key: 'curl', group: 'glitchbox', label: 'curl', name: 'curl request', code: (c) => curlSubmit(c.origin, c.apiKey) },
  { key: 'http', group: 'glitchbox', label: 'HTTP', name: 'HTTP request', code: (c) => httpSubmit(c.origin, c.apiKey) },
  { key: 'config', group: 'glitchbox', label: 'SDK config', name: 'SDK configuration', code: (c) => sdkConfig(c.origin, c.apiKey) },
  { key: 'widget', group: 'glitchbox', label: 'Web widget', name: 'widget script tag', code: (c) => widgetTag(c.origin, c.apiKey) },
  { key: 'sessions', group: 'sessions', label: 'curl', name: 'session calls', code: (c) => sessionsCurl(c.origin, c.apiKey) },
]

/** The SDK budget an operator could set when players are being refused: 300 a minute, or twice the current one past that. */
export const suggestedBudget = (perMinute: number) => (perMinute < 300 ? 300 : perMinute * 2)
