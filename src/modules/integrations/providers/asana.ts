import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { type Answer, callProvider, expectOk, requiredString } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError, type Target } from './provider.types'
import { issueDescription, issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Asana'
/** Our statuses that complete the task; the others leave it (or make it again) incomplete. */
const DONE = new Set(['resolved', 'closed', 'wont_fix'])

/** One REST call with the personal access token as a bearer; bodies and answers are wrapped in `data`. */
async function call(ctx: ProviderContext, method: string, path: string, data?: Record<string, unknown>): Promise<Answer> {
  const url = `${providerUrl(ctx.deps.config, 'asana', 'https://app.asana.com/api/1.0')}${path}`
  return expectOk(NAME, await callProvider(ctx, NAME, url, { method, headers: { Authorization: `Bearer ${ctx.secret}` }, ...(data !== undefined && { body: JSON.stringify({ data }) }) }))
}

/** The Markdown body as Asana's plain-text notes: bold markers dropped, the link written out. */
const plainNotes = (markdown: string) => markdown.replace(/^- \*\*([a-z_]+)\*\*: /gm, '- $1: ').replace(/^\[(.+)\]\((.+)\)$/m, '$1: $2')

const projectPath = (ctx: ProviderContext) => `/projects/${encodeURIComponent(String(ctx.config.project_gid))}`

/** Asana: files new reports in a project as tasks; completes or reopens them with the report's status, and moves them to the section status_map names. */
export const asana: Provider = {
  key: 'asana',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'Personal access token', help: 'In Asana, open the developer console (My apps), and create a personal access token.', url: 'https://app.asana.com/0/my-apps' },
  config: { project_gid: 'the project to file in, picked from targets', status_map: 'optional: our status → section name in the project, e.g. {"in_progress": "Doing"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be an Asana personal access token')
    const gid = requiredString(config, 'project_gid', { re: /^\d+$/, hint: 'an Asana project gid (digits), picked from targets' })
    return { project_gid: gid, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const out: Target[] = []
    const workspaces = ((await call(ctx, 'GET', '/workspaces?limit=100')).json?.data ?? []) as { gid: string; name: string }[]
    for (const w of workspaces) {
      // Pages of 100 (Asana's largest), following next_page, up to 1,000 projects per workspace.
      let offset: string | undefined
      for (let page = 0; page < 10; page++) {
        const a = await call(ctx, 'GET', `/projects?workspace=${w.gid}&archived=false&limit=100&opt_fields=name${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`)
        out.push(...((a.json?.data ?? []) as { gid: string; name: string }[]).map((p) => ({ id: p.gid, name: p.name, group: w.name })))
        offset = a.json?.next_page?.offset
        if (!offset) break
      }
    }
    return out
  },
  async test(ctx) {
    const a = await call(ctx, 'GET', `${projectPath(ctx)}?opt_fields=name`)
    return `Asana accepted the token; tasks go to the project ${a.json?.data?.name ?? ctx.config.project_gid}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const a = await call(ctx, 'POST', '/tasks?opt_fields=name,permalink_url,completed', {
        name: issueTitle(input.payload),
        notes: plainNotes(issueDescription(input.payload, ctx.deps.config.publicUrl)),
        projects: [String(ctx.config.project_gid)],
      })
      const task = a.json?.data as { gid?: string; name?: string; permalink_url?: string } | undefined
      if (!task?.gid) throw new ProviderError(`${NAME} did not create the task`, a.status, a.text)
      const made: ExternalLink = { externalId: task.gid, url: task.permalink_url ?? `https://app.asana.com/0/${ctx.config.project_gid}/${task.gid}`, title: task.name ?? issueTitle(input.payload), state: 'incomplete' }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Asana task yet (its filing has not succeeded)')
    const status = newStatus(input.payload)
    const sectionName = statusMapOf(ctx.config)[status]
    let section: { gid: string; name: string } | undefined
    if (sectionName) {
      const sections = ((await call(ctx, 'GET', `${projectPath(ctx)}/sections?opt_fields=name`)).json?.data ?? []) as { gid: string; name: string }[]
      section = sections.find((s) => s.name.toLowerCase() === sectionName.toLowerCase())
      if (!section) throw new ProviderError(`${NAME} has no section named ${sectionName} in the project`)
      await call(ctx, 'POST', `/sections/${section.gid}/addTask`, { task: link.externalId })
    }
    const done = DONE.has(status)
    const a = await call(ctx, 'PUT', `/tasks/${encodeURIComponent(link.externalId)}?opt_fields=completed`, { completed: done })
    const state = [section?.name, done ? 'completed' : 'incomplete'].filter(Boolean).join(', ')
    return { statusCode: a.status, response: a.text, link: { ...link, state } }
  },
}
