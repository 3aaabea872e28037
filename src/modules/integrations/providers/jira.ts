import { badRequest } from '../../../http/errors'
import { assertPublicUrl, UnsafeTargetError } from '../../../net/safe-fetch'
import { type Answer, answerMessage, callProvider, requiredString } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError } from './provider.types'
import { issueDescription, issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Jira'
/** Jira's default priority scheme (Highest … Lowest). */
const PRIORITY = { critical: 'Highest', high: 'High', medium: 'Medium', low: 'Low' } as const
/** Our statuses → the status category (new, indeterminate, done) every Jira workflow status has one of. */
const CATEGORY: Record<string, string> = { open: 'new', in_progress: 'indeterminate', resolved: 'done', closed: 'done', wont_fix: 'done' }
/** Among done statuses, the names a "won't fix" is looked for under first. */
const WONT_FIX = /won.?t|cancel|reject|declin|invalid/i
const SITE = /^[a-z0-9][a-z0-9-]{0,62}\.atlassian\.net$/

interface JiraStatus {
  name: string
  statusCategory?: { key: string }
}

/** `config.site` as a bare `*.atlassian.net` host (a pasted https://…/ URL is accepted); 400 naming the field. */
function siteOf(config: Record<string, unknown>): string {
  const raw = requiredString(config, 'site')
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
  if (!SITE.test(raw)) throw badRequest('config.site must be your Jira Cloud host, like studio.atlassian.net')
  return raw
}

const emailOf = (config: Record<string, unknown>) => requiredString(config, 'email', { re: /^[^\s@]+@[^\s@]+$/, hint: 'the email of the Atlassian account the token belongs to' })

/** The site and email, checked, with the site passed through the SSRF guard (400 naming the field). */
async function checkedAccount(ctx: Pick<ProviderContext, 'deps'>, config: Record<string, unknown>) {
  const site = siteOf(config)
  const email = emailOf(config)
  try {
    await assertPublicUrl(`https://${site}/`, { allowPrivate: ctx.deps.config.allowPrivateTargets })
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw badRequest(`config.site: ${err.message}`)
    throw err
  }
  return { site, email }
}

/** Jira's own words: `errorMessages` and the per-field `errors`, else the generic reading. */
function jiraMessage(a: Answer): string {
  const j = a.json
  const parts: string[] = Array.isArray(j?.errorMessages) ? j.errorMessages.filter((m: unknown) => typeof m === 'string') : []
  if (j?.errors && typeof j.errors === 'object' && !Array.isArray(j.errors)) parts.push(...Object.entries(j.errors).map(([k, v]) => `${k}: ${String(v)}`))
  return parts.length ? parts.join('; ').slice(0, 300) : answerMessage(a)
}

/**
 * One REST v3 call with basic auth (account email + API token). The site is the user's, so it goes
 * through the SSRF guard; `GLITCHBOX_PROVIDER_URL_JIRA`, when set, replaces it for every site.
 */
async function call(ctx: ProviderContext, method: string, path: string, body?: unknown): Promise<Answer> {
  const site = siteOf(ctx.config)
  const override = ctx.deps.config.providerUrls.jira
  const auth = Buffer.from(`${emailOf(ctx.config)}:${ctx.secret}`).toString('base64')
  const a = await callProvider(ctx, NAME, `${override ?? `https://${site}`}${path}`, { method, headers: { Authorization: `Basic ${auth}` }, ...(body !== undefined && { body: JSON.stringify(body) }) }, { userUrl: !override })
  if (a.status >= 300) throw new ProviderError(`${NAME} answered ${a.status}: ${jiraMessage(a)}`, a.status, a.text)
  return a
}

const projectRef = (id: string) => (/^\d+$/.test(id) ? { id } : { key: id })
const text = (t: string) => ({ type: 'text', text: t })
const paragraph = (content: object[]) => ({ type: 'paragraph', content })

/**
 * The issue body as an Atlassian Document Format document, from the Markdown `issueDescription`
 * (one source for every tracker): the report's text as paragraphs, its fields as a bullet list with
 * the names in bold, and the link back to the report.
 */
export function adfDescription(markdown: string): Record<string, unknown> {
  const lines = markdown.split('\n')
  const content: object[] = []
  const linkLine = lines.pop() ?? ''
  const fields: object[] = []
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop()
  while (lines.length && /^- \*\*[a-z_]+\*\*: /.test(lines[lines.length - 1]!)) {
    const [, k, v] = /^- \*\*([a-z_]+)\*\*: (.*)$/.exec(lines.pop()!)!
    fields.unshift({ type: 'listItem', content: [paragraph([{ ...text(k!), marks: [{ type: 'strong' }] }, text(`: ${v}`)])] })
  }
  for (const block of lines.join('\n').split(/\n{2,}/)) {
    const rows = block.split('\n').filter((r) => r.trim())
    if (rows.length) content.push(paragraph(rows.flatMap((r, i) => (i ? [{ type: 'hardBreak' }, text(r)] : [text(r)]))))
  }
  if (fields.length) content.push({ type: 'bulletList', content: fields })
  const link = /^\[(.+)\]\((.+)\)$/.exec(linkLine)
  if (link) content.push(paragraph([{ ...text(link[1]!), marks: [{ type: 'link', attrs: { href: link[2] } }] }]))
  return { type: 'doc', version: 1, content }
}

/** The project's issue type to file as: config.issue_type by name, else Bug, else its first standard type. */
async function issueType(ctx: ProviderContext): Promise<{ id: string; name: string }> {
  const a = await call(ctx, 'GET', `/rest/api/3/project/${encodeURIComponent(String(ctx.config.project_id))}`)
  const types = ((a.json?.issueTypes ?? []) as { id: string; name: string; subtask?: boolean }[]).filter((t) => !t.subtask)
  const wanted = typeof ctx.config.issue_type === 'string' ? ctx.config.issue_type : null
  const found = types.find((t) => t.name.toLowerCase() === (wanted ?? 'bug').toLowerCase()) ?? (wanted ? undefined : types[0])
  if (!found) throw new ProviderError(wanted ? `${NAME} has no issue type named ${wanted} in the project` : `${NAME} offers no issue type in the project`)
  return found
}

/** Whether a Jira status is where our status belongs: the status_map name, else the status category. */
function matches(s: JiraStatus | undefined, status: string, wanted: string | undefined): boolean {
  if (!s) return false
  return wanted ? s.name.toLowerCase() === wanted.toLowerCase() : s.statusCategory?.key === CATEGORY[status]
}

/** Jira Cloud (REST v3): files new reports in a project as issues, moves them through the workflow's transitions with the report's status. */
export const jira: Provider = {
  key: 'jira',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  plan: 'pro',
  defaultMinPriority: 'low',
  credential: { label: 'API token', help: 'At id.atlassian.com, open Security, API tokens, and create a token; use it with your Atlassian account email.', url: 'https://id.atlassian.com/manage-profile/security/api-tokens' },
  config: {
    site: 'your *.atlassian.net host',
    email: 'the Atlassian account email the token belongs to',
    project_id: 'picked from targets',
    issue_type: 'optional: the issue type to file as (default Bug, else the project\'s first type)',
    status_map: 'optional: our status → Jira status name, e.g. {"resolved": "Done"}',
  },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 16) throw badRequest('secret must be a Jira API token')
    const { site, email } = await checkedAccount(ctx, config)
    const projectId = requiredString(config, 'project_id')
    return {
      site,
      email,
      project_id: projectId,
      ...(config.issue_type !== undefined && { issue_type: requiredString(config, 'issue_type') }),
      ...(config.status_map !== undefined && { status_map: statusMapOf(config) }),
    }
  },
  async targets(ctx) {
    const { site, email } = await checkedAccount(ctx, ctx.config)
    const c = { ...ctx, config: { ...ctx.config, site, email } }
    const out: { id: string; name: string; group: string }[] = []
    for (let startAt = 0; startAt < 1000; startAt += 50) {
      const a = await call(c, 'GET', `/rest/api/3/project/search?startAt=${startAt}&maxResults=50&orderBy=name`)
      const values = (a.json?.values ?? []) as { id: string; key: string; name: string }[]
      out.push(...values.map((p) => ({ id: p.id, name: p.name, group: p.key })))
      if (a.json?.isLast !== false || !values.length) break
    }
    return out
  },
  async test(ctx) {
    const a = await call(ctx, 'GET', `/rest/api/3/project/${encodeURIComponent(String(ctx.config.project_id))}`)
    return `Jira accepted the token; issues go to the project ${a.json?.name ?? ctx.config.project_id}${a.json?.key ? ` (${a.json.key})` : ''}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const type = await issueType(ctx)
      const title = issueTitle(input.payload)
      const fields: Record<string, unknown> = {
        project: projectRef(String(ctx.config.project_id)),
        issuetype: { id: type.id },
        summary: title,
        description: adfDescription(issueDescription(input.payload, ctx.deps.config.publicUrl)),
        priority: { name: PRIORITY[input.payload.report?.priority as keyof typeof PRIORITY] ?? 'Medium' },
      }
      let a: Answer
      try {
        a = await call(ctx, 'POST', '/rest/api/3/issue', { fields })
      } catch (err) {
        // A project whose create screen lacks the priority field refuses it: file without it.
        if (!(err instanceof ProviderError) || err.statusCode !== 400 || !err.message.includes('priority:')) throw err
        delete fields.priority
        a = await call(ctx, 'POST', '/rest/api/3/issue', { fields })
      }
      const key = a.json?.key as string | undefined
      if (!key) throw new ProviderError(`${NAME} did not create the issue`, a.status, a.text)
      const made: ExternalLink = { externalId: key, url: `https://${siteOf(ctx.config)}/browse/${key}`, title, state: null }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Jira issue yet (its filing has not succeeded)')
    const status = newStatus(input.payload)
    const wanted = statusMapOf(ctx.config)[status]
    const issuePath = `/rest/api/3/issue/${encodeURIComponent(link.externalId)}`
    const got = await call(ctx, 'GET', `${issuePath}?fields=status&expand=transitions`)
    const current = got.json?.fields?.status as JiraStatus | undefined
    if (matches(current, status, wanted)) return { statusCode: got.status, response: `already in ${current!.name}`, link: { ...link, state: current!.name } }
    const candidates = ((got.json?.transitions ?? []) as { id: string; name: string; to: JiraStatus }[]).filter((t) => matches(t.to, status, wanted))
    const transition = (status === 'wont_fix' && !wanted && candidates.find((t) => WONT_FIX.test(t.to.name))) || candidates[0]
    if (!transition) throw new ProviderError(`${NAME} offers no transition from ${current?.name ?? 'the issue\'s status'} to ${wanted ?? `a status of category ${CATEGORY[status]}`}`)
    const a = await call(ctx, 'POST', `${issuePath}/transitions`, { transition: { id: transition.id } })
    return { statusCode: a.status, response: a.text || `moved to ${transition.to.name}`, link: { ...link, state: transition.to.name } }
  },
}
