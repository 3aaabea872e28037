import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { fieldValues, type MatchedField, matchedField, optionFor, statusCandidates } from './matched-fields'
import { callProvider, expectOk, requiredString } from './provider-http'
import { type DeliveryPayload, type ExternalLink, type Provider, type ProviderContext, ProviderError, type Target } from './provider.types'
import { issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Notion'
/** The API version the calls below are written against (databases with properties, search by object). */
const NOTION_VERSION = '2022-06-28'
const DATABASE_ID = { re: /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i, hint: 'a database id (32 hex digits), picked from targets' }
/** Notion caps one rich-text piece at 2,000 characters and a property at 100 pieces. */
const TEXT_PIECE = 2_000
const MAX_PIECES = 100
/** Pages of search results read for targets (100 databases each). */
const MAX_PAGES = 10

interface Property {
  id: string
  name: string
  type: string
  select?: { options: { name: string }[] }
  status?: { options: { name: string }[] }
  multi_select?: { options: { name: string }[] }
}

/** One call with the integration secret (`Authorization: Bearer`, `Notion-Version`); Notion answers errors as `{object: "error", code, message}`. */
async function api(ctx: ProviderContext, method: string, path: string, body?: unknown) {
  const base = providerUrl(ctx.deps.config, 'notion', 'https://api.notion.com')
  return expectOk(NAME, await callProvider(ctx, NAME, `${base}${path}`, { method, headers: { Authorization: `Bearer ${ctx.secret}`, 'Notion-Version': NOTION_VERSION }, ...(body !== undefined && { body: JSON.stringify(body) }) }))
}

const plain = (rich: { plain_text?: string }[] | undefined) => (rich ?? []).map((t) => t.plain_text ?? '').join('')

/** A string as Notion rich text: pieces of at most 2,000 characters. */
function richText(s: string) {
  const pieces: { type: 'text'; text: { content: string } }[] = []
  for (let i = 0; i < s.length && pieces.length < MAX_PIECES; i += TEXT_PIECE) pieces.push({ type: 'text', text: { content: s.slice(i, i + TEXT_PIECE) } })
  return pieces
}

/** The configured database's title and properties. */
async function database(ctx: ProviderContext): Promise<{ title: string; properties: Property[] }> {
  const a = await api(ctx, 'GET', `/v1/databases/${ctx.config.database_id}`)
  return { title: plain(a.json?.title) || String(ctx.config.database_id), properties: Object.values((a.json?.properties ?? {}) as Record<string, Property>) }
}

const optionsOf = (p: Property) => (p[p.type as 'select' | 'status' | 'multi_select']?.options ?? []).map((o) => o.name)

/** A property's value for one of ours in Notion's shape, or undefined when its type cannot hold it (or no option matches). */
function propertyValue(p: Property, field: MatchedField, value: string | number, config: Record<string, unknown>): unknown {
  const text = field === 'status' ? (statusMapOf(config)[String(value)] ?? String(value)) : String(value)
  switch (p.type) {
    case 'title':
      return { title: richText(text) }
    case 'rich_text':
      return { rich_text: richText(text) }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { number: value } : undefined
    case 'url':
      return field === 'link' ? { url: String(value) } : undefined
    case 'select':
    case 'status':
    case 'multi_select': {
      const name = optionFor(field, value, optionsOf(p), config)
      if (name === null) return undefined
      return p.type === 'multi_select' ? { multi_select: [{ name }] } : { [p.type]: { name } }
    }
    default:
      return undefined
  }
}

/** The page's properties: those named like our fields whose types can hold the value; the title property gets the issue title when it is not named Title. */
function pageProperties(properties: Property[], payload: DeliveryPayload, publicUrl: string, config: Record<string, unknown>): Record<string, unknown> {
  const values = fieldValues(payload, publicUrl)
  const out: Record<string, unknown> = {}
  for (const p of properties) {
    const field = matchedField(p.name)
    const value = field ? values[field] : undefined
    if (!field || value === undefined) continue
    const v = propertyValue(p, field, value, config)
    if (v !== undefined) out[p.name] = v
  }
  const titleProp = properties.find((p) => p.type === 'title')
  if (titleProp && !(titleProp.name in out)) out[titleProp.name] = { title: richText(issueTitle(payload)) }
  return out
}

/** The option name or text a status property value carries. */
const stateOf = (v: unknown) => {
  const o = v as { status?: { name: string }; select?: { name: string }; multi_select?: { name: string }[]; rich_text?: { text: { content: string } }[] }
  return o.status?.name ?? o.select?.name ?? o.multi_select?.[0]?.name ?? o.rich_text?.map((t) => t.text.content).join('') ?? null
}

/** Notion: files new reports as pages of a database (filling the properties named like our fields) and sets their Status with the report's status. */
export const notion: Provider = {
  key: 'notion',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'Internal integration secret', help: 'Create an internal integration at notion.so/my-integrations, copy its secret, and share the database with it (its ••• menu, Connections).', url: 'https://www.notion.so/my-integrations' },
  config: { database_id: 'the database to file in, picked from targets', status_map: 'optional: our status → Status option, e.g. {"resolved": "Done"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be a Notion internal integration secret')
    const databaseId = requiredString(config, 'database_id', DATABASE_ID)
    return { database_id: databaseId, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const out: Target[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const a = await api(ctx, 'POST', '/v1/search', { filter: { property: 'object', value: 'database' }, page_size: 100, ...(cursor && { start_cursor: cursor }) })
      for (const d of (a.json?.results ?? []) as { object: string; id: string; title?: { plain_text?: string }[] }[]) {
        if (d.object === 'database') out.push({ id: d.id, name: plain(d.title) || 'Untitled' })
      }
      cursor = a.json?.has_more ? a.json?.next_cursor : undefined
      if (!cursor) break
    }
    return out
  },
  async test(ctx) {
    const db = await database(ctx)
    const matched = db.properties.filter((p) => matchedField(p.name)).map((p) => p.name)
    return `Notion accepted the secret; pages go to the database ${db.title}${matched.length ? ` filling ${matched.join(', ')}` : ' (no property is named like our fields: only the title is set)'}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const { properties } = await database(ctx)
      const props = pageProperties(properties, input.payload, ctx.deps.config.publicUrl, ctx.config)
      const a = await api(ctx, 'POST', '/v1/pages', { parent: { database_id: ctx.config.database_id }, properties: props })
      const page = a.json as { id?: string; url?: string } | null
      if (!page?.id) throw new ProviderError(`${NAME} did not create the page`, a.status, a.text)
      const status = properties.find((p) => matchedField(p.name) === 'status')
      const made: ExternalLink = { externalId: page.id, url: page.url ?? '', title: issueTitle(input.payload), state: status && props[status.name] ? stateOf(props[status.name]) : null }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Notion page yet (its filing has not succeeded)')
    const { title, properties } = await database(ctx)
    const prop = properties.find((p) => matchedField(p.name) === 'status' && ['status', 'select', 'multi_select', 'rich_text'].includes(p.type))
    if (!prop) throw new ProviderError(`${NAME} database ${title} has no Status property`)
    const status = newStatus(input.payload)
    const value = propertyValue(prop, 'status', status, ctx.config)
    if (value === undefined) throw new ProviderError(`${NAME} property ${prop.name} has no option named ${statusCandidates(ctx.config, status).names.join(' or ')}`)
    const a = await api(ctx, 'PATCH', `/v1/pages/${link.externalId}`, { properties: { [prop.name]: value } })
    return { statusCode: a.status, response: a.text, link: { ...link, state: stateOf(value) } }
  },
}
