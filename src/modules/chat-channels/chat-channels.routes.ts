import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { CHANNEL_PROVIDERS } from './chat-channels.providers'
import { CHAT_CHANNEL_PROVIDERS, type ChatChannelProvider, createChannelBody, updateChannelBody } from './chat-channels.schemas'
import { createChannel, deleteChannel, listChannelDeliveries, listChannels, testChannel, updateChannel } from './chat-channels.service'

const tags = ['Chat channels']

/** The routes of one chat-channel provider: `/projects/{slug}/webhooks/{discord|slack}`. */
function providerRoutes(deps: AppDeps, provider: ChatChannelProvider) {
  const name = CHANNEL_PROVIDERS[provider].name
  const base = `/projects/:slug/webhooks/${provider}`
  return new Elysia()
    .use(authPlugin(deps))
    .get(base, ({ project }) => listChannels(deps, project.id, provider), { project: true, detail: { tags, summary: `List ${name} channels (the webhook URL only as a hint)` } })
    .post(
      base,
      async ({ project, user, body, set }) => {
        const created = await createChannel(deps, project, user.id, provider, body)
        set.status = 201
        return created
      },
      { project: 'project.integrations', body: createChannelBody, detail: { tags, summary: `Add a ${name} channel by its incoming webhook URL` } },
    )
    .patch(`${base}/:channelId`, ({ project, user, params, body }) => updateChannel(deps, project, user.id, provider, params.channelId, body), {
      project: 'project.integrations',
      body: updateChannelBody,
      detail: { tags, summary: `Change a ${name} channel; is_active false pauses it, true resumes it` },
    })
    .delete(`${base}/:channelId`, ({ project, user, params }) => deleteChannel(deps, project, user.id, provider, params.channelId), {
      project: 'project.integrations',
      detail: { tags, summary: `Remove a ${name} channel` },
    })
    .post(`${base}/:channelId/test`, ({ project, params }) => testChannel(deps, project, provider, params.channelId), {
      project: 'project.integrations',
      detail: { tags, summary: `Post a test message to a ${name} channel now` },
    })
    .get(`${base}/:channelId/deliveries`, ({ project, params }) => listChannelDeliveries(deps, project.id, provider, params.channelId), {
      // The posted messages carry report titles and comments: only for those who manage integrations.
      project: 'project.integrations',
      detail: { tags, summary: `The ${name} channel's 50 most recent posts, newest first, with their status and the provider's answer` },
    })
}

/** Chat channels: report events posted to Discord and Slack channels through incoming webhooks. */
export const chatChannelsRoutes = (deps: AppDeps) => {
  const app = new Elysia()
  for (const p of CHAT_CHANNEL_PROVIDERS) app.use(providerRoutes(deps, p))
  return app
}
