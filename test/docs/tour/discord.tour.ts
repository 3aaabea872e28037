import type { Tour } from './tour.types'

const APP_ID = '1100000000000000001'

/** The Discord /report app: settings saved, commands registered (the fake Discord has no such API: 502), an unsigned interaction refused, settings removed. */
export const discordTour: Tour = {
  'PUT /api/projects/{slug}/discord': { body: () => ({ application_id: APP_ID, public_key: 'ab'.repeat(32), bot_token: 'bot-token-for-the-tour.x1', guild_id: '1100000000000000000' }) },
  'GET /api/projects/{slug}/discord': {},
  'POST /api/projects/{slug}/discord/register': { status: 502 },
  // Discord signs every interaction; one without a signature is refused before anything is read.
  'POST /api/discord/interactions/{application_id}': { as: 'anonymous', params: () => ({ application_id: APP_ID }), body: () => ({ type: 1, id: '1', application_id: APP_ID, token: 'interaction-token' }), status: 401 },
  'DELETE /api/projects/{slug}/discord': {},
}
