/** Where to go after signing in: the `next` query when it is a dashboard path, else the projects list. */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /^\/(api)(\/|$)/.test(next)) return '/'
  return next
}
