import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { fieldValues, type MatchedField, matchedField, optionFor, statusCandidates } from './matched-fields'
import { callProvider, expectOk, requiredString } from './provider-http'
import { type DeliveryPayload, type ExternalLink, type Provider, type ProviderContext, ProviderError, type Target } from './provider.types'
import { issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Airtable'
const TABLE = { re: /^app[A-Za-z0-9]{14}\/tbl[A-Za-z0-9]{14}$/, hint: '<appId>/<tableId> (e.g. appXXXXXXXXXXXXXX/tblXXXXXXXXXXXXXX), picked from targets' }
/** Field types we write text into, and the select types whose choices we pick from. */
const TEXT_TYPES = new Set(['singleLineText', 'multilineText', 'richText'])
const SELECT_TYPES = new Set(['singleSelect', 'multipleSelects'])
/** Pages of bases read for targets (100 bases each). */
const MAX_PAGES = 10

interface Field {
  id: string
  name: string
  type: string
  options?: { choices?: { name: string }[] }
}
interface Table {
  id: string
  name: string
  primaryFieldId: string
  fields: Field[]
}

/** One call with the personal access token (`Authorization: Bearer`); Airtable answers errors as `{error: {type, message}}`. */
async function api(ctx: ProviderContext, method: string, path: string, body?: unknown) {
  const base = providerUrl(ctx.deps.config, 'airtable', 'https://api.airtable.com')
  return expectOk(NAME, await callProvider(ctx, NAME, `${base}${path}`, { method, headers: { Authorization: `Bearer ${ctx.secret}` }, ...(body !== undefined && { body: JSON.stringify(body) }) }))
}

const tableRef = (config: Record<string, unknown>) => {
  const [baseId, tableId] = String(config.table).split('/') as [string, string]
  return { baseId, tableId }
}

/** The configured table's schema (its fields with their types and choices) from the meta API. */
async function tableSchema(ctx: ProviderContext): Promise<Table> {
  const { baseId, tableId } = tableRef(ctx.config)
  const a = await api(ctx, 'GET', `/v0/meta/bases/${baseId}/tables`)
  const table = ((a.json?.tables ?? []) as Table[]).find((t) => t.id === tableId)
  if (!table) throw new ProviderError(`${NAME} has no table ${tableId} in base ${baseId} that the token can read`, a.status, a.text)
  return table
}

/** The value a field takes for one of our values, or undefined when the field's type cannot hold it (or no choice matches). */
function cellValue(f: Field, field: MatchedField, value: string | number, config: Record<string, unknown>): unknown {
  if (TEXT_TYPES.has(f.type)) {
    const text = field === 'status' ? (statusMapOf(config)[String(value)] ?? String(value)) : String(value)
    // A single line text field holds no line breaks (the description's Markdown has them).
    return f.type === 'singleLineText' ? text.replace(/\s*\n+\s*/g, ' ').trim() : text
  }
  if (f.type === 'number') return typeof value === 'number' && Number.isFinite(value) ? value : undefined
  if (f.type === 'url') return field === 'link' ? value : undefined
  if (SELECT_TYPES.has(f.type)) {
    const choice = optionFor(field, value, (f.options?.choices ?? []).map((c) => c.name), config)
    if (choice === null) return undefined
    return f.type === 'multipleSelects' ? [choice] : choice
  }
  return undefined
}

/** The record's fields: every field whose name matches one of ours and whose type can hold the value; the primary field gets the title when no field is named Title. */
function recordFields(table: Table, payload: DeliveryPayload, publicUrl: string, config: Record<string, unknown>): Record<string, unknown> {
  const values = fieldValues(payload, publicUrl)
  const out: Record<string, unknown> = {}
  for (const f of table.fields) {
    const field = matchedField(f.name)
    const value = field ? values[field] : undefined
    if (!field || value === undefined) continue
    const cell = cellValue(f, field, value, config)
    if (cell !== undefined) out[f.name] = cell
  }
  const primary = table.fields.find((f) => f.id === table.primaryFieldId)
  if (primary && !matchedField(primary.name) && TEXT_TYPES.has(primary.type) && !table.fields.some((f) => matchedField(f.name) === 'title')) out[primary.name] = issueTitle(payload)
  return out
}

/** Airtable: files new reports as records of a table (filling the fields named like ours) and sets their Status field with the report's status. */
export const airtable: Provider = {
  key: 'airtable',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'Personal access token', help: 'In Airtable, open the builder hub and create a token with data.records:write and schema.bases:read on the base.', url: 'https://airtable.com/create/tokens' },
  config: { table: '<appId>/<tableId>, picked from targets', status_map: 'optional: our status → Status choice, e.g. {"resolved": "Fixed"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be an Airtable personal access token')
    const table = requiredString(config, 'table', TABLE)
    return { table, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const out: Target[] = []
    let offset: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const a = await api(ctx, 'GET', `/v0/meta/bases${offset ? `?offset=${encodeURIComponent(offset)}` : ''}`)
      for (const b of (a.json?.bases ?? []) as { id: string; name: string }[]) {
        const t = await api(ctx, 'GET', `/v0/meta/bases/${b.id}/tables`)
        for (const table of (t.json?.tables ?? []) as Table[]) out.push({ id: `${b.id}/${table.id}`, name: table.name, group: b.name })
      }
      offset = a.json?.offset
      if (!offset) break
    }
    return out
  },
  async test(ctx) {
    const table = await tableSchema(ctx)
    const matched = table.fields.filter((f) => matchedField(f.name)).map((f) => f.name)
    return `Airtable accepted the token; records go to the table ${table.name}${matched.length ? ` filling ${matched.join(', ')}` : ' (no field is named like ours: only its primary field is filled)'}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    const { baseId, tableId } = tableRef(ctx.config)
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const table = await tableSchema(ctx)
      const fields = recordFields(table, input.payload, ctx.deps.config.publicUrl, ctx.config)
      const a = await api(ctx, 'POST', `/v0/${baseId}/${tableId}`, { fields })
      const id = a.json?.id as string | undefined
      if (!id) throw new ProviderError(`${NAME} did not create the record`, a.status, a.text)
      const status = table.fields.find((f) => matchedField(f.name) === 'status')
      const made: ExternalLink = { externalId: id, url: `https://airtable.com/${baseId}/${tableId}/${id}`, title: issueTitle(input.payload), state: status ? ((fields[status.name] as string | undefined) ?? null) : null }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Airtable record yet (its filing has not succeeded)')
    const table = await tableSchema(ctx)
    const field = table.fields.find((f) => matchedField(f.name) === 'status')
    if (!field) throw new ProviderError(`${NAME} table ${table.name} has no Status field`)
    const status = newStatus(input.payload)
    const value = cellValue(field, 'status', status, ctx.config)
    if (value === undefined) throw new ProviderError(`${NAME} field ${field.name} has no choice named ${statusCandidates(ctx.config, status).names.join(' or ')}`)
    const a = await api(ctx, 'PATCH', `/v0/${baseId}/${tableId}/${link.externalId}`, { fields: { [field.name]: value } })
    return { statusCode: a.status, response: a.text, link: { ...link, state: Array.isArray(value) ? String(value[0]) : String(value) } }
  },
}
