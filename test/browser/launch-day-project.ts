import { seedLaunchDay } from '../helpers/launch-day'
import type { BrowserHarness } from './harness'
import { publicProject } from './public-fixtures'

/**
 * A project on its launch day, as a studio sees it: the launch-day dataset (test/helpers/launch-day.ts)
 * sent through the SDK routes of the real server, its public tracker, roadmap and changelog turned on,
 * a public comment on the busiest crash. For screens that must not be checked empty (the
 * accessibility sweep, the README's screenshots).
 */
export async function launchDayProject(h: BrowserHarness, o: { name?: string; submissions?: number; sessions?: number } = {}) {
  const p = await publicProject(h, o.name ?? 'Star Forge')
  const sdk = async (path: string, body: Record<string, unknown>) => {
    const res = await h.api('POST', path, { apiKey: p.apiKey, body })
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  }
  await seedLaunchDay(
    {
      submit: (body) => sdk('/api/bugs/submit', body),
      session: async (start, crashed) => {
        await sdk('/api/sessions/start', { api_key: p.apiKey, ...start })
        await sdk('/api/sessions/end', { api_key: p.apiKey, session_token: start.session_token, crashed })
      },
    },
    { submissions: o.submissions, sessions: o.sessions },
  )
  // The reports most players hit, busiest first: a crash with its stack trace tops the list.
  const { bugs: busiest } = (await p.call('GET', `/api/projects/${p.slug}/bugs?sort=players`)) as { bugs: { report_number: number }[] }
  const top = busiest[0]!.report_number
  await p.call('POST', `/api/projects/${p.slug}/bugs/${top}/comments`, { body: 'We are on it: a fix ships in 1.3.1.', is_internal: false })
  await p.call('PUT', `/api/projects/${p.slug}/tracker-settings`, { enabled: true, allow_upvotes: true, allow_search: true, show_categories: true, show_status_filter: true, page_title: 'Star Forge known issues' })
  await p.call('PUT', `/api/projects/${p.slug}/roadmap-settings`, { enabled: true, title: 'Star Forge roadmap', show_upvotes: true })
  await p.call('PATCH', `/api/projects/${p.slug}/bugs/${busiest[1]!.report_number}`, { status: 'in_progress' })
  await p.call('POST', `/api/projects/${p.slug}/changelog`, { title: 'Patch 1.3.0', version: '1.3.0', body: '## Fixed\n- The inventory no longer crashes when it opens\n- Boosting on ice works again', publish: true })
  const { players } = (await p.call('GET', `/api/projects/${p.slug}/players`)) as { players: { player_id: string }[] }
  return { ...p, topReport: top, playerId: players[0]!.player_id }
}
