/** What the fake received. */
export interface GitHit {
  method: string
  path: string
  query: URLSearchParams
  headers: Headers
  json: any
}

/**
 * A fake GitHub API (at `/`, and at `/api/v3` as GitHub Enterprise serves it) and GitLab API (at
 * `/api/v4`) on one port, answering as they do:
 * GitHub takes `Authorization: Bearer gh-good-token`, GitLab `PRIVATE-TOKEN: glpat-good-token`.
 * Repositories: GitHub `acme/game` (and `acme/no-issues` with issues off), GitLab `games/studio/engine`.
 * `failCreates` makes the next issue creations answer 500; `issueUrl`, when set, is the URL every issue answers with.
 */
export function startFakeGit() {
  const hits: GitHit[] = []
  const state = { failCreates: 0, nextNumber: 42, issueUrl: null as string | null }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const text = await req.text()
      const json = text ? JSON.parse(text) : null
      hits.push({ method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers, json })
      const base = `http://${url.host}`
      if (url.pathname.startsWith('/api/v4/')) {
        if (req.headers.get('private-token') !== 'glpat-good-token') return Response.json({ message: '401 Unauthorized' }, { status: 401 })
        const m = /^\/api\/v4\/projects\/([^/]+)(\/issues)?(?:\/(\d+))?$/.exec(url.pathname)
        if (!m || decodeURIComponent(m[1]!) !== 'games/studio/engine') return Response.json({ message: '404 Project Not Found' }, { status: 404 })
        const web = `${base}/games/studio/engine`
        const issueUrl = (n: number) => state.issueUrl ?? `${web}/-/issues/${n}`
        if (!m[2]) return Response.json({ id: 7, path_with_namespace: 'games/studio/engine', web_url: web, issues_enabled: true })
        if (req.method === 'POST') {
          if (state.failCreates-- > 0) return Response.json({ message: '500 Internal Server Error' }, { status: 500 })
          return Response.json({ id: 900, iid: state.nextNumber, title: json.title, web_url: issueUrl(state.nextNumber), state: 'opened' }, { status: 201 })
        }
        if (m[3]) return Response.json({ iid: Number(m[3]), title: `Issue ${m[3]}`, web_url: issueUrl(Number(m[3])), state: 'opened' })
        return Response.json([{ iid: 3, title: `Crash when ${url.searchParams.get('search') ?? 'anything'}`, web_url: issueUrl(3), state: 'opened' }])
      }
      if (req.headers.get('authorization') !== 'Bearer gh-good-token') {
        return Response.json({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' }, { status: 401 })
      }
      // GitHub Enterprise serves the same API under /api/v3.
      const path = url.pathname.replace(/^\/api\/v3(?=\/)/, '')
      const issueUrl = (n: number) => state.issueUrl ?? `https://github.com/acme/game/issues/${n}`
      if (path === '/search/issues') {
        return Response.json({ total_count: 1, incomplete_results: false, items: [{ number: 5, title: 'Crash on boot', html_url: issueUrl(5), state: 'open' }] })
      }
      const m = /^\/repos\/([\w.-]+\/[\w.-]+)(\/issues)?(?:\/(\d+))?$/.exec(path)
      if (!m || !['acme/game', 'acme/no-issues'].includes(m[1]!)) return Response.json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }, { status: 404 })
      if (!m[2]) return Response.json({ id: 1, full_name: m[1], html_url: `https://github.com/${m[1]}`, has_issues: m[1] === 'acme/game' })
      if (req.method === 'POST') {
        if (state.failCreates-- > 0) return Response.json({ message: 'Server Error' }, { status: 500 })
        if (!json?.title) return Response.json({ message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }] }, { status: 422 })
        return Response.json({ id: 1001, number: state.nextNumber, title: json.title, html_url: issueUrl(state.nextNumber), state: 'open' }, { status: 201 })
      }
      if (m[3]) return Response.json({ number: Number(m[3]), title: `Issue ${m[3]}`, html_url: issueUrl(Number(m[3])), state: 'open' })
      return Response.json([])
    },
  })
  const url = `http://127.0.0.1:${server.port}`
  return { url, hits, state, stop: () => server.stop(true) }
}
