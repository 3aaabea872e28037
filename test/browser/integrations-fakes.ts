/** Fakes of the providers the integrations browser test connects to, each a tiny Bun server on 127.0.0.1. */
import { exportPKCS8, generateKeyPair } from 'jose'

/** A fake Slack incoming webhook on 127.0.0.1: records each posted message and answers `ok` as Slack does. */
export function fakeSlack() {
  const received: { path: string; body: { text?: string; blocks?: unknown[] } }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      if (req.method !== 'POST' || !path.startsWith('/services/')) return new Response('no_service', { status: 404 })
      received.push({ path, body: (await req.json()) as { text?: string; blocks?: unknown[] } })
      return new Response('ok', { headers: { 'content-type': 'text/plain' } })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, received, stop: () => server.stop(true) }
}

/** The only Linear key the fake accepts. */
export const GOOD_KEY = 'lin_api_good_0123456789abcdef'

/** A fake Linear GraphQL API: teams for the target picker, issueCreate for filing; any other key is refused as Linear does. */
export function fakeLinear() {
  let issues = 0
  const json = (status: number, body: unknown) => Response.json(body, { status })
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (req.method !== 'POST' || new URL(req.url).pathname !== '/graphql') return json(404, { errors: [{ message: 'not found' }] })
      if (req.headers.get('authorization') !== GOOD_KEY)
        return json(400, { errors: [{ message: 'Authentication required, not authenticated', extensions: { userPresentableMessage: 'Your API key is invalid.' } }] })
      const { query, variables } = (await req.json()) as { query: string; variables: { input?: { title: string } } }
      if (query.includes('teams(')) return json(200, { data: { teams: { nodes: [{ id: 'team-game', name: 'Game', key: 'GAME' }, { id: 'team-web', name: 'Web', key: 'WEB' }] } } })
      if (query.includes('issueCreate')) {
        issues++
        return json(200, { data: { issueCreate: { success: true, issue: { id: `uuid-${issues}`, identifier: `GAME-${issues}`, url: `https://linear.app/studio/issue/GAME-${issues}`, title: variables.input!.title, state: { name: 'Todo' } } } } })
      }
      if (query.includes('team(')) return json(200, { data: { team: { id: 'team-game', name: 'Game' } } })
      return json(200, { data: null, errors: [{ message: 'unexpected query' }] })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, issues: () => issues, stop: () => server.stop(true) }
}

/** A fake Steam store review API: one page of three reviews (one a quick refund), then an empty page. */
export function fakeSteam() {
  const now = Math.floor(Date.now() / 1000)
  const review = (id: string, up: boolean, text: string, minutes: number, ago: number) => ({
    recommendationid: id,
    author: { steamid: `7656119800000${id}`, playtime_forever: minutes, playtime_at_review: minutes },
    language: 'english',
    review: text,
    timestamp_created: now - ago,
    voted_up: up,
    votes_up: 0,
    votes_funny: 0,
    steam_purchase: true,
    received_for_free: false,
    written_during_early_access: false,
  })
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      if (!url.pathname.startsWith('/appreviews/')) return new Response('not found', { status: 404 })
      if (url.searchParams.get('cursor') !== '*') return Response.json({ success: 1, query_summary: { num_reviews: 0 }, reviews: [], cursor: 'end' })
      return Response.json({
        success: 1,
        query_summary: { num_reviews: 3, review_score: 6, review_score_desc: 'Mostly Positive', total_positive: 2, total_negative: 1, total_reviews: 3 },
        reviews: [
          review('3', false, 'Crashed twice in ten minutes, asked for a refund', 12, 3600),
          review('2', true, 'Drifting around comets never gets old', 900, 86_400),
          review('1', true, 'Great soundtrack and tight controls', 1500, 2 * 86_400),
        ],
        cursor: 'next',
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

/** A fake Google token endpoint and Android Publisher reviews API: two reviews, and replies of at most 350 characters. */
export function fakePlay() {
  const replies: { id: string; text: string }[] = []
  const at = String(Math.floor(Date.now() / 1000) - 3600)
  const review = (id: string, stars: number, text: string) => ({
    reviewId: id,
    authorName: `Player ${id}`,
    comments: [{ userComment: { text, lastModified: { seconds: at, nanos: 0 }, starRating: stars, reviewerLanguage: 'en', device: 'a52q', appVersionName: '1.4.2' } }],
  })
  const reviews = [review('gp-1', 1, 'Crashes on launch since the last update'), review('gp-2', 5, 'Best drifting game on my phone')]
  const base = '/androidpublisher/v3/applications/com.studio.game/reviews'
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (url.pathname === '/token' && req.method === 'POST') return Response.json({ access_token: 'ya29.fake', expires_in: 3599, token_type: 'Bearer' })
      if (req.headers.get('authorization') !== 'Bearer ya29.fake') return Response.json({ error: { code: 401, message: 'Request had invalid authentication credentials.' } }, { status: 401 })
      if (req.method === 'GET' && url.pathname === base) return Response.json({ reviews, pageInfo: { totalResults: reviews.length } })
      const m = /\/reviews\/([^/:]+):reply$/.exec(decodeURIComponent(url.pathname))
      if (req.method === 'POST' && m) {
        const { replyText } = (await req.json()) as { replyText: string }
        if (replyText.length > 350) return Response.json({ error: { code: 400, message: 'Reply text is too long.' } }, { status: 400 })
        replies.push({ id: m[1]!, text: replyText })
        return Response.json({ result: { replyText, lastEdited: { seconds: at, nanos: 0 } } })
      }
      return Response.json({ error: { code: 404, message: 'Not found' } }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, replies, stop: () => server.stop(true) }
}

/** A Google service-account JSON key with a fresh RSA key (the fake does not check signatures). */
export async function serviceAccountKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  return JSON.stringify({ type: 'service_account', project_id: 'studio-game', private_key: await exportPKCS8(privateKey), client_email: 'glitchbox@studio-game.iam.gserviceaccount.com', token_uri: 'https://oauth2.googleapis.com/token' })
}

/** A fake Discord webhook endpoint: records posted bodies and answers 204 as Discord does. */
export function fakeDiscord() {
  const received: unknown[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (req.method !== 'POST' || !/^\/api\/webhooks\/\d+\/[\w-]+$/.test(new URL(req.url).pathname)) return Response.json({ message: 'Unknown Webhook', code: 10015 }, { status: 404 })
      received.push(await req.json())
      return new Response(null, { status: 204 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, received, stop: () => server.stop(true) }
}

/** A fake GitHub REST API: the repository (issues on), issue search and creation; any other token is refused. */
export function fakeGithub() {
  const searches: string[] = []
  const created: string[] = []
  /** While true, issue creation is refused as GitHub refuses a token without write access. */
  const state = { refuseCreates: false }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (req.headers.get('authorization') !== 'Bearer ghp_goodtoken0123456789') return Response.json({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }, { status: 401 })
      if (url.pathname === '/repos/studio/comet-drift') return Response.json({ full_name: 'studio/comet-drift', has_issues: true })
      if (url.pathname === '/repos/studio/comet-drift/issues' && req.method === 'POST') {
        if (state.refuseCreates) return Response.json({ message: 'Resource not accessible by personal access token', documentation_url: 'https://docs.github.com/rest' }, { status: 403 })
        const { title } = (await req.json()) as { title: string }
        created.push(title)
        return Response.json({ number: 8, html_url: 'https://github.com/studio/comet-drift/issues/8', title, state: 'open' }, { status: 201 })
      }
      if (url.pathname === '/search/issues') {
        searches.push(url.searchParams.get('q') ?? '')
        return Response.json({ total_count: 1, items: [{ number: 7, html_url: 'https://github.com/studio/comet-drift/issues/7', title: 'Asteroid collision is off', state: 'open' }] })
      }
      return Response.json({ message: 'Not Found' }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, searches, created, state, stop: () => server.stop(true) }
}
