import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { fieldValues, type MatchedField, matchedField, optionFor, statusCandidates } from './matched-fields'
import { callProvider } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError, type Target } from './provider.types'
import { issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'monday.com'
/** The API version the queries below are written against (monday answers every version for a year). */
const API_VERSION = '2024-10'
/** Pages of boards read for targets (100 boards each). */
const MAX_PAGES = 10

interface Column {
  id: string
  title: string
  type: string
  settings_str: string
}

/**
 * One GraphQL call with the API token in `Authorization`. monday answers application errors with a
 * 200 and an `errors` array (older versions: `error_message`), transport and authentication errors
 * with another status: all are the tool refusing.
 */
async function gql(ctx: ProviderContext, query: string, variables: Record<string, unknown> = {}) {
  const url = `${providerUrl(ctx.deps.config, 'monday', 'https://api.monday.com')}/v2`
  const a = await callProvider(ctx, NAME, url, { method: 'POST', headers: { Authorization: ctx.secret, 'API-Version': API_VERSION }, body: JSON.stringify({ query, variables }) })
  const errors = (a.json?.errors ?? []) as { message: string }[]
  const words = [...errors.map((e) => e.message), ...(typeof a.json?.error_message === 'string' ? [a.json.error_message] : [])].join('; ')
  if (a.status >= 300) throw new ProviderError(`${NAME} answered ${a.status}: ${words || a.text.trim() || `status ${a.status}`}`, a.status, a.text)
  if (words) throw new ProviderError(`${NAME} answered: ${words}`, a.status, a.text)
  return { status: a.status, text: a.text, data: a.json?.data as any }
}

/** The configured board's name and columns. */
async function boardColumns(ctx: ProviderContext): Promise<{ name: string; columns: Column[] }> {
  const { data } = await gql(ctx, 'query($ids: [ID!]) { boards(ids: $ids) { id name columns { id title type settings_str } } }', { ids: [ctx.config.board_id] })
  const board = data?.boards?.[0]
  if (!board) throw new ProviderError(`${NAME} has no board ${ctx.config.board_id} that the token can read`)
  return { name: board.name, columns: board.columns ?? [] }
}

/** A status column's labels (settings_str `{"labels": {"0": "Working on it", …}}`). */
function labelsOf(c: Column): string[] {
  try {
    const labels = JSON.parse(c.settings_str || '{}').labels ?? {}
    return Object.values(labels as Record<string, string>).filter((l) => typeof l === 'string' && l !== '')
  } catch {
    return []
  }
}

/** A column's value for one of ours in monday's JSON shape, or undefined when the column's type cannot hold it (or no label matches). */
function columnValue(c: Column, field: MatchedField, value: string | number, config: Record<string, unknown>): unknown {
  if (c.type === 'status') {
    const label = optionFor(field, value, labelsOf(c), config)
    return label === null ? undefined : { label }
  }
  const text = field === 'status' ? (statusMapOf(config)[String(value)] ?? String(value)) : String(value)
  if (c.type === 'text') return text
  if (c.type === 'long_text') return { text }
  if (c.type === 'link') return field === 'link' ? { url: String(value), text: 'Glitchbox report' } : undefined
  if (c.type === 'numbers') return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined
  return undefined
}

/** monday.com (GraphQL API v2): files new reports as items of a board (filling the columns titled like our fields) and changes their status column. */
export const monday: Provider = {
  key: 'monday',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'API token', help: 'In monday.com, open your avatar menu, Developers, My access tokens, and copy the token.', url: 'https://developer.monday.com/api-reference/docs/authentication' },
  config: { board_id: 'the board to file in, picked from targets', status_map: 'optional: our status → status label, e.g. {"in_progress": "Working on it"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be a monday.com API token')
    const raw = typeof config.board_id === 'number' ? String(config.board_id) : config.board_id
    if (typeof raw !== 'string' || !raw.trim()) throw badRequest('config.board_id is required')
    if (!/^\d+$/.test(raw.trim())) throw badRequest('config.board_id must be a board id (digits), picked from targets')
    return { board_id: raw.trim(), ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const out: Target[] = []
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await gql(ctx, 'query($page: Int!) { boards(limit: 100, page: $page, state: active) { id name type workspace { name } } }', { page })
      const boards = (data?.boards ?? []) as { id: string; name: string; type: string | null; workspace: { name: string } | null }[]
      for (const b of boards) if (!b.type || b.type === 'board') out.push({ id: b.id, name: b.name, group: b.workspace?.name ?? 'Main workspace' })
      if (boards.length < 100) break
    }
    return out
  },
  async test(ctx) {
    const board = await boardColumns(ctx)
    const matched = board.columns.filter((c) => matchedField(c.title)).map((c) => c.title)
    return `monday.com accepted the token; items go to the board ${board.name}${matched.length ? ` filling ${matched.join(', ')}` : ' (no column is titled like our fields: only the item name is set)'}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const { columns } = await boardColumns(ctx)
      const values = fieldValues(input.payload, ctx.deps.config.publicUrl)
      const columnValues: Record<string, unknown> = {}
      let state: string | null = null
      for (const c of columns) {
        const field = matchedField(c.title)
        const value = field ? values[field] : undefined
        if (!field || value === undefined) continue
        const v = columnValue(c, field, value, ctx.config)
        if (v === undefined) continue
        columnValues[c.id] = v
        if (field === 'status') state = typeof v === 'string' ? v : ((v as { label?: string }).label ?? null)
      }
      const a = await gql(ctx, 'mutation($board: ID!, $name: String!, $values: JSON) { create_item(board_id: $board, item_name: $name, column_values: $values) { id name url } }', {
        board: ctx.config.board_id,
        name: issueTitle(input.payload),
        values: JSON.stringify(columnValues),
      })
      const item = a.data?.create_item
      if (!item?.id) throw new ProviderError(`${NAME} did not create the item`, a.status, a.text)
      const made: ExternalLink = { externalId: String(item.id), url: item.url ?? '', title: item.name ?? issueTitle(input.payload), state }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no monday.com item yet (its filing has not succeeded)')
    const { name, columns } = await boardColumns(ctx)
    const column = columns.find((c) => matchedField(c.title) === 'status' && ['status', 'text'].includes(c.type))
    if (!column) throw new ProviderError(`${NAME} board ${name} has no Status column`)
    const status = newStatus(input.payload)
    const value = columnValue(column, 'status', status, ctx.config)
    if (value === undefined) throw new ProviderError(`${NAME} column ${column.title} has no label named ${statusCandidates(ctx.config, status).names.join(' or ')}`)
    const a = await gql(ctx, 'mutation($board: ID!, $item: ID!, $column: String!, $value: JSON!) { change_column_value(board_id: $board, item_id: $item, column_id: $column, value: $value) { id } }', {
      board: ctx.config.board_id,
      item: link.externalId,
      column: column.id,
      value: JSON.stringify(value),
    })
    return { statusCode: a.status, response: a.text, link: { ...link, state: typeof value === 'string' ? value : (value as { label: string }).label } }
  },
}
