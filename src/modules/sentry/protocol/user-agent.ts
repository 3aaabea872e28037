import { isObject, text } from './values'

/** A browser or an operating system as a user agent names it; `version` is '' when it gives none. */
export interface Named {
  name: string
  version: string
}

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, and every one says Mozilla.
const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\/([\d.]+)/, 'Edge'],
  [/\bOPR\/([\d.]+)/, 'Opera'],
  [/\bFirefox\/([\d.]+)/, 'Firefox'],
  [/\bFxiOS\/([\d.]+)/, 'Firefox'],
  [/\bSamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/\b(?:HeadlessChrome|Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/\bVersion\/([\d.]+)(?: Mobile\/\w+)? Safari\//, 'Safari'],
]

// iOS and Android before the desktop systems their agents also name (`like Mac OS X`, `Linux`).
const SYSTEMS: [RegExp, string, (m: RegExpExecArray) => string][] = [
  [/\b(?:iPhone|iPad|iPod)\b.*? OS (\d+(?:_\d+)*)/, 'iOS', (m) => m[1]!.replace(/_/g, '.')],
  [/\bAndroid(?: ([\d.]+))?/, 'Android', (m) => m[1] ?? ''],
  [/\bCrOS\b/, 'Chrome OS', () => ''],
  [/\bWindows NT ([\d.]+)/, 'Windows', (m) => m[1]!],
  [/\bMac OS X(?: (\d+(?:[_.]\d+)*))?/, 'macOS', (m) => (m[1] ?? '').replace(/_/g, '.')],
  [/\bLinux\b/, 'Linux', () => ''],
]

/** The browser a user agent names (`Chrome 131.0.6778.33`), or null for one it does not know. */
export function browserOf(agent: string): Named | null {
  for (const [re, name] of BROWSERS) {
    const m = re.exec(agent)
    if (m) return { name, version: m[1]! }
  }
  return null
}

/** The operating system a user agent names (`Windows 10.0`, `Linux`), or null. */
export function systemOf(agent: string): Named | null {
  for (const [re, name, version] of SYSTEMS) {
    const m = re.exec(agent)
    if (m) return { name, version: version(m) }
  }
  return null
}

/**
 * The `User-Agent` of an event's `request.headers` (an object, or Sentry's list of `[name, value]`
 * pairs), whatever its case: the browser SDK sends no OS or browser context, only this header.
 */
export function userAgentOf(request: unknown): string | null {
  const headers = isObject(request) ? request.headers : undefined
  const pairs: unknown[] = Array.isArray(headers) ? headers : isObject(headers) ? Object.entries(headers) : []
  for (const pair of pairs) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && pair[0].toLowerCase() === 'user-agent') return text(pair[1], 1000) ?? null
  }
  return null
}
