/**
 * A project's Sentry DSN (CONTRACT.md "Sentry SDKs"): `{scheme}://{api_key}@{host[:port]}{path}/{dsn_id}`
 * from the server's public URL, so Sentry SDKs send to this server. A path in the public URL (a
 * server behind a proxy under `/glitchbox`) stays in the DSN, as Sentry SDKs support.
 */
export function dsnOf(publicUrl: string, apiKey: string, dsnId: number | null): string | null {
  if (dsnId === null) return null
  const url = new URL(publicUrl)
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${apiKey}@${url.host}${path}/${dsnId}`
}
