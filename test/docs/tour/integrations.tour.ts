import { GOOD_KEY } from '../../browser/integrations-fakes'
import type { Tour } from './tour.types'

/** Outgoing webhooks, chat channels, integrations (with store reviews), the git repository and Steam, each against a local fake. */
export const integrationsTour: Tour = {
  'POST /api/projects/{slug}/webhooks/generic': { body: (w) => ({ url: w.fakes.hooks.url, name: 'Build server', event_types: ['bug_created'], secret: 'hook-secret-123' }), keep: (d, w) => (w.v.webhookId = d.id) },
  'GET /api/projects/{slug}/webhooks/generic': {},
  'POST /api/projects/{slug}/webhooks/generic/{webhookId}/test': {},
  'GET /api/projects/{slug}/webhooks/generic/{webhookId}/deliveries': {},
  'DELETE /api/projects/{slug}/webhooks/generic/{webhookId}': {},

  'POST /api/projects/{slug}/webhooks/discord': { body: (w) => ({ webhook_url: `${w.fakes.discord.url}/api/webhooks/123456/tok-en_x9z8`, channel_name: '#bugs' }), keep: (d, w) => (w.v.channelId = d.id) },
  'GET /api/projects/{slug}/webhooks/discord': {},
  'POST /api/projects/{slug}/webhooks/discord/{channelId}/test': {},
  'GET /api/projects/{slug}/webhooks/discord/{channelId}/deliveries': {},
  'PATCH /api/projects/{slug}/webhooks/discord/{channelId}': { body: () => ({ channel_name: '#crashes', event_types: ['bug_created', 'comment_added'] }) },
  'DELETE /api/projects/{slug}/webhooks/discord/{channelId}': {},
  'POST /api/projects/{slug}/webhooks/slack': { body: (w) => ({ webhook_url: `${w.fakes.slack.url}/services/T000/B000/XXXX`, channel_name: '#bugs' }), keep: (d, w) => (w.v.slackChannelId = d.id) },
  'GET /api/projects/{slug}/webhooks/slack': {},
  'POST /api/projects/{slug}/webhooks/slack/{channelId}/test': { params: (w) => ({ channelId: w.v.slackChannelId! }) },
  'GET /api/projects/{slug}/webhooks/slack/{channelId}/deliveries': { params: (w) => ({ channelId: w.v.slackChannelId! }) },
  'PATCH /api/projects/{slug}/webhooks/slack/{channelId}': { params: (w) => ({ channelId: w.v.slackChannelId! }), body: () => ({ is_active: false }) },
  'DELETE /api/projects/{slug}/webhooks/slack/{channelId}': { params: (w) => ({ channelId: w.v.slackChannelId! }) },

  'GET /api/integrations/providers': {},
  'POST /api/projects/{slug}/integrations/{provider}': {
    params: () => ({ provider: 'slack' }),
    body: (w) => ({ secret: `${w.fakes.slack.url}/services/T111/B111/YYYY`, name: 'Slack #bugs', event_types: ['bug_created'], min_priority: 'medium' }),
    keep: (d, w) => (w.v.integrationId = d.id),
  },
  'GET /api/projects/{slug}/integrations': { query: () => ({ provider: 'slack' }) },
  'POST /api/projects/{slug}/integrations/{provider}/targets': { params: () => ({ provider: 'linear' }), body: () => ({ secret: GOOD_KEY }) },
  'PATCH /api/projects/{slug}/integrations/{provider}/{integrationId}': { params: () => ({ provider: 'slack' }), body: () => ({ name: 'Slack #crashes', min_priority: 'high' }) },
  'POST /api/projects/{slug}/integrations/{provider}/{integrationId}/test': { params: () => ({ provider: 'slack' }) },
  'GET /api/projects/{slug}/integrations/{provider}/{integrationId}/deliveries': { params: () => ({ provider: 'slack' }) },
  'POST /api/projects/{slug}/integrations/{provider}/{integrationId}/sync': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/integrations/google_play`, {
        token: w.owner.token,
        body: { secret: w.serviceAccount, config: { package_name: 'com.studio.game' }, event_types: ['reviews'] },
      })
      w.v.playId = res.body.data.id
    },
    params: (w) => ({ provider: 'google_play', integrationId: w.v.playId! }),
  },
  'GET /api/projects/{slug}/store-reviews': { query: () => ({ provider: 'google_play', max_rating: '5' }), keep: (d, w) => (w.v.reviewId = d[0].id) },
  'POST /api/projects/{slug}/store-reviews/{reviewId}/reply': { body: () => ({ body: 'Thanks! The crash on launch is fixed in 1.4.3.' }) },
  'POST /api/projects/{slug}/bugs/{number}/issues': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/integrations/linear`, { token: w.owner.token, body: { secret: GOOD_KEY, config: { team_id: 'team-game' } } })
      w.v.linearId = res.body.data.id
    },
    body: (w) => ({ integration_id: w.v.linearId }),
  },
  'GET /api/projects/{slug}/bugs/{number}/issues': {},
  'DELETE /api/projects/{slug}/integrations/{provider}/{integrationId}': { params: () => ({ provider: 'slack' }) },

  'POST /api/projects/{slug}/git': { body: () => ({ provider: 'github', repo_url: 'https://github.com/studio/comet-drift', access_token: 'ghp_goodtoken0123456789', auto_create_issues: false }) },
  'GET /api/projects/{slug}/git': {},
  'PATCH /api/projects/{slug}/git': { body: () => ({ auto_create_issues: false }) },
  'GET /api/projects/{slug}/git/issues': { query: () => ({ q: 'asteroid' }) },
  'POST /api/projects/{slug}/bugs/{number}/issue': { body: () => ({}) },
  'GET /api/projects/{slug}/bugs/{number}/issue': {},
  'DELETE /api/projects/{slug}/bugs/{number}/issue': {},
  'DELETE /api/projects/{slug}/git': {},

  'POST /api/projects/{slug}/steam': { body: () => ({ app_id: 480, sync_enabled: false }) },
  'GET /api/projects/{slug}/steam': {},
  'PATCH /api/projects/{slug}/steam': { body: () => ({ sync_enabled: true }) },
  'POST /api/projects/{slug}/steam/sync': {},
  'GET /api/projects/{slug}/steam/dashboard': { query: () => ({ days: '30' }) },
  'GET /api/projects/{slug}/steam/reviews': { query: () => ({ filter: 'negative' }) },
  'GET /api/projects/{slug}/steam/review-history': { query: () => ({ days: '30' }) },
  'GET /api/projects/{slug}/steam/refund-signals': {},
  'GET /api/projects/{slug}/steam/sync-stats': {},
  'DELETE /api/projects/{slug}/steam': {},
}
