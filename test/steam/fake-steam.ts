/** A fake Steam store answering `GET /appreviews/{app_id}` as Steam does, pages chained by cursor. */
export interface FakeReview {
  id: string
  up: boolean
  text?: string
  /** Days before `now`. */
  ageDays?: number
  playtimeMinutes?: number
}

export function startFakeSteam(o: { now: Date; reviews: FakeReview[]; pageSize?: number }) {
  const seen: URL[] = []
  const state = { reviews: o.reviews, fail: null as null | { status: number; body: string }, summary: { review_score: 6, review_score_desc: 'Mostly Positive' } }
  const pageSize = o.pageSize ?? 100
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      seen.push(url)
      if (state.fail) return new Response(state.fail.body, { status: state.fail.status })
      if (!/^\/appreviews\/\d+$/.test(url.pathname)) return new Response('not found', { status: 404 })
      const cursor = url.searchParams.get('cursor') ?? '*'
      const start = cursor === '*' ? 0 : Number(cursor.replace('c', ''))
      const sorted = [...state.reviews].sort((a, b) => (a.ageDays ?? 0) - (b.ageDays ?? 0))
      const page = sorted.slice(start, start + pageSize)
      const positive = state.reviews.filter((r) => r.up).length
      const body = {
        success: 1,
        query_summary:
          cursor === '*'
            ? { num_reviews: page.length, ...state.summary, total_positive: positive, total_negative: state.reviews.length - positive, total_reviews: state.reviews.length }
            : { num_reviews: page.length },
        reviews: page.map((r) => ({
          recommendationid: r.id,
          author: { steamid: `7656119${r.id}`, playtime_forever: (r.playtimeMinutes ?? 600) + 30, playtime_at_review: r.playtimeMinutes ?? 600 },
          language: 'english',
          review: r.text ?? `review ${r.id}`,
          timestamp_created: Math.floor((o.now.getTime() - (r.ageDays ?? 0) * 86_400_000) / 1000),
          timestamp_updated: Math.floor((o.now.getTime() - (r.ageDays ?? 0) * 86_400_000) / 1000),
          voted_up: r.up,
          votes_up: 1,
          votes_funny: 0,
          steam_purchase: true,
          received_for_free: false,
          written_during_early_access: false,
        })),
        // Steam hands out a cursor even on the last page; the next call returns no reviews.
        cursor: `c${start + page.length}`,
      }
      return Response.json(body)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, seen, state, stop: () => server.stop(true) }
}
