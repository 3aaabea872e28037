import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { type Answer, callProvider, expectOk, requiredString } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError } from './provider.types'
import { issueDescription, issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Trello'
/** Our statuses that archive (close) the card when status_map names no list for them. */
const DONE = new Set(['resolved', 'closed', 'wont_fix'])
const apiKeyOf = (config: Record<string, unknown>) => requiredString(config, 'api_key', { re: /^[0-9a-f]{32}$/i, hint: 'the 32-character API key of your Trello Power-Up' })

/** One REST call; Trello takes the Power-Up's API key and the user token as `key` and `token` query parameters. */
async function call(ctx: ProviderContext, method: string, path: string, body?: Record<string, unknown>): Promise<Answer> {
  const auth = new URLSearchParams({ key: String(ctx.config.api_key), token: ctx.secret })
  const url = `${providerUrl(ctx.deps.config, 'trello', 'https://api.trello.com/1')}${path}${path.includes('?') ? '&' : '?'}${auth}`
  return expectOk(NAME, await callProvider(ctx, NAME, url, { method, ...(body !== undefined && { body: JSON.stringify(body) }) }))
}

/** Trello: files new reports in a list as cards; moves a card to the list status_map names for the report's status, else archives it when done and brings it back when reopened. */
export const trello: Provider = {
  key: 'trello',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'User token', help: 'Create a Power-Up in the Trello admin portal, generate its API key, then follow its "Token" link to generate a user token.', url: 'https://trello.com/power-ups/admin' },
  config: {
    api_key: 'the Power-Up API key',
    list_id: 'the list to file in, picked from targets',
    status_map: 'optional: our status → list name on the board, e.g. {"in_progress": "Doing", "resolved": "Done"}',
  },
  secretConfig: ['api_key'],
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 32) throw badRequest('secret must be a Trello user token')
    const apiKey = apiKeyOf(config)
    const listId = requiredString(config, 'list_id', { re: /^[0-9a-f]{24}$/i, hint: 'a Trello list id, picked from targets' })
    return { api_key: apiKey, list_id: listId, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const c = { ...ctx, config: { ...ctx.config, api_key: apiKeyOf(ctx.config) } }
    const boards = ((await call(c, 'GET', '/members/me/boards?filter=open&fields=name&lists=open')).json ?? []) as { name: string; lists?: { id: string; name: string }[] }[]
    return boards.flatMap((b) => (b.lists ?? []).map((l) => ({ id: l.id, name: l.name, group: b.name })))
  },
  async test(ctx) {
    const a = await call(ctx, 'GET', `/lists/${encodeURIComponent(String(ctx.config.list_id))}?fields=name`)
    return `Trello accepted the token; cards go to the list ${a.json?.name ?? ctx.config.list_id}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const a = await call(ctx, 'POST', '/cards', { idList: ctx.config.list_id, name: issueTitle(input.payload), desc: issueDescription(input.payload, ctx.deps.config.publicUrl).slice(0, 16_384), pos: 'top' })
      const card = a.json as { id?: string; name?: string; shortUrl?: string; url?: string } | null
      if (!card?.id) throw new ProviderError(`${NAME} did not create the card`, a.status, a.text)
      const made: ExternalLink = { externalId: card.id, url: card.shortUrl ?? card.url ?? `https://trello.com/c/${card.id}`, title: card.name ?? issueTitle(input.payload), state: 'open' }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Trello card yet (its filing has not succeeded)')
    const status = newStatus(input.payload)
    const listName = statusMapOf(ctx.config)[status]
    const cardPath = `/cards/${encodeURIComponent(link.externalId)}`
    if (!listName) {
      const closed = DONE.has(status)
      const a = await call(ctx, 'PUT', cardPath, { closed })
      return { statusCode: a.status, response: a.text, link: { ...link, state: closed ? 'archived' : 'open' } }
    }
    const card = (await call(ctx, 'GET', `${cardPath}?fields=idBoard`)).json as { idBoard?: string } | null
    const lists = ((await call(ctx, 'GET', `/boards/${encodeURIComponent(String(card?.idBoard))}/lists?filter=open&fields=name`)).json ?? []) as { id: string; name: string }[]
    const list = lists.find((l) => l.name.toLowerCase() === listName.toLowerCase())
    if (!list) throw new ProviderError(`${NAME} has no open list named ${listName} on the card's board`)
    const a = await call(ctx, 'PUT', cardPath, { idList: list.id, closed: false })
    return { statusCode: a.status, response: a.text, link: { ...link, state: list.name } }
  },
}
