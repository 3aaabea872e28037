import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { type Answer, answerMessage, callProvider, requiredString } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError, type Target } from './provider.types'
import { issueDescription, issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'ClickUp'
/** ClickUp's priorities: 1 urgent, 2 high, 3 normal, 4 low. */
const PRIORITY = { critical: 1, high: 2, medium: 3, low: 4 } as const

interface ListStatus {
  status: string
  type: string
  orderindex: number
}

/** ClickUp's own words: `{err, ECODE}`, else the generic reading. */
const clickupMessage = (a: Answer) => (typeof a.json?.err === 'string' ? `${a.json.err}${a.json.ECODE ? ` (${a.json.ECODE})` : ''}` : answerMessage(a))

/** One API v2 call with the personal token in `Authorization` (no scheme, as ClickUp expects). */
async function call(ctx: ProviderContext, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = `${providerUrl(ctx.deps.config, 'clickup', 'https://api.clickup.com/api/v2')}${path}`
  const a = await callProvider(ctx, NAME, url, { method, headers: { Authorization: ctx.secret }, ...(body !== undefined && { body: JSON.stringify(body) }) })
  if (a.status >= 300) throw new ProviderError(`${NAME} answered ${a.status}: ${clickupMessage(a)}`, a.status, a.text)
  return a
}

const listPath = (ctx: ProviderContext) => `/list/${encodeURIComponent(String(ctx.config.list_id))}`

/**
 * The list's status a report status maps to: the name in status_map, else by the status's type
 * (open: the list's open status; in progress: its first custom status; resolved: done, else closed;
 * closed and won't fix: closed).
 */
function targetStatus(statuses: ListStatus[], status: string, wanted: string | undefined): ListStatus {
  const sorted = [...statuses].sort((a, b) => a.orderindex - b.orderindex)
  const ofType = (...types: string[]) => types.map((t) => sorted.find((s) => s.type === t)).find(Boolean)
  const found = wanted
    ? sorted.find((s) => s.status.toLowerCase() === wanted.toLowerCase())
    : status === 'open'
      ? ofType('open')
      : status === 'in_progress'
        ? ofType('custom')
        : status === 'resolved'
          ? ofType('done', 'closed')
          : ofType('closed', 'done')
  if (!found) throw new ProviderError(`${NAME} has no status ${wanted ? `named ${wanted}` : `for ${status}`} in the list`)
  return found
}

/** ClickUp (API v2): files new reports in a list as tasks, sets the task's status with the report's. */
export const clickup: Provider = {
  key: 'clickup',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'API token', help: 'In ClickUp, open Settings, Apps, and generate a personal API token (pk_…).', url: 'https://app.clickup.com/settings/apps' },
  config: { list_id: 'the list to file in, picked from targets', status_map: 'optional: our status → the list\'s status name, e.g. {"in_progress": "in review"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 10) throw badRequest('secret must be a ClickUp API token')
    const listId = requiredString(config, 'list_id', { re: /^\d+$/, hint: 'a ClickUp list id (digits), picked from targets' })
    return { list_id: listId, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const out: Target[] = []
    const teams = ((await call(ctx, 'GET', '/team')).json?.teams ?? []) as { id: string; name: string }[]
    for (const team of teams) {
      const spaces = ((await call(ctx, 'GET', `/team/${team.id}/space?archived=false`)).json?.spaces ?? []) as { id: string; name: string }[]
      for (const space of spaces) {
        const group = `${team.name} / ${space.name}`
        const folders = ((await call(ctx, 'GET', `/space/${space.id}/folder?archived=false`)).json?.folders ?? []) as { name: string; lists?: { id: string; name: string }[] }[]
        const lists = ((await call(ctx, 'GET', `/space/${space.id}/list?archived=false`)).json?.lists ?? []) as { id: string; name: string }[]
        out.push(...lists.map((l) => ({ id: String(l.id), name: l.name, group })))
        for (const f of folders) out.push(...(f.lists ?? []).map((l) => ({ id: String(l.id), name: l.name, group: `${group} / ${f.name}` })))
      }
    }
    return out
  },
  async test(ctx) {
    const a = await call(ctx, 'GET', listPath(ctx))
    return `ClickUp accepted the token; tasks go to the list ${a.json?.name ?? ctx.config.list_id}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const description = issueDescription(input.payload, ctx.deps.config.publicUrl)
      const a = await call(ctx, 'POST', `${listPath(ctx)}/task`, {
        name: issueTitle(input.payload),
        description,
        markdown_content: description,
        priority: PRIORITY[input.payload.report?.priority as keyof typeof PRIORITY] ?? 3,
      })
      const task = a.json as { id?: string; name?: string; url?: string; status?: { status?: string } } | null
      if (!task?.id) throw new ProviderError(`${NAME} did not create the task`, a.status, a.text)
      const made: ExternalLink = { externalId: task.id, url: task.url ?? `https://app.clickup.com/t/${task.id}`, title: task.name ?? issueTitle(input.payload), state: task.status?.status ?? null }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no ClickUp task yet (its filing has not succeeded)')
    const status = newStatus(input.payload)
    const statuses = ((await call(ctx, 'GET', listPath(ctx))).json?.statuses ?? []) as ListStatus[]
    const target = targetStatus(statuses, status, statusMapOf(ctx.config)[status])
    const a = await call(ctx, 'PUT', `/task/${encodeURIComponent(link.externalId)}`, { status: target.status })
    return { statusCode: a.status, response: a.text, link: { ...link, state: (a.json?.status?.status as string | undefined) ?? target.status } }
  },
}
