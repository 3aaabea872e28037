import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { callProvider, expectOk, requiredString } from './provider-http'
import { type ExternalLink, type Provider, type ProviderContext, ProviderError } from './provider.types'
import { issueDescription, issueTitle, newStatus, statusMapOf, trackerActions } from './tracker'

const NAME = 'Linear'
/** Linear's priorities: 1 urgent, 2 high, 3 medium, 4 low. */
const PRIORITY = { critical: 1, high: 2, medium: 3, low: 4 } as const
/** Our statuses → the workflow state type a team always has one of; `config.status_map` names a state instead. */
const STATE_TYPES: Record<string, string> = { open: 'unstarted', in_progress: 'started', resolved: 'completed', closed: 'completed', wont_fix: 'canceled' }

/**
 * One GraphQL call with the personal API key (`Authorization: <key>`). GraphQL reports errors in
 * `errors` (authentication ones with a 400, others often with a 200): both are the tool refusing.
 */
async function gql(ctx: ProviderContext, query: string, variables: Record<string, unknown> = {}) {
  const a = expectOk(NAME, await callProvider(ctx, NAME, `${providerUrl(ctx.deps.config, 'linear', 'https://api.linear.app')}/graphql`, { method: 'POST', headers: { Authorization: ctx.secret }, body: JSON.stringify({ query, variables }) }))
  const errors = a.json?.errors as { message: string; extensions?: { userPresentableMessage?: string } }[] | undefined
  if (errors?.length) throw new ProviderError(`${NAME} answered: ${errors.map((e) => e.extensions?.userPresentableMessage ?? e.message).join('; ')}`, a.status, a.text)
  return { status: a.status, text: a.text, data: a.json?.data as any }
}

/** The team's workflow state a status maps to: the name in status_map, else the first state of the status's type. */
async function targetState(ctx: ProviderContext, status: string) {
  const { data } = await gql(ctx, 'query($id: String!) { team(id: $id) { states { nodes { id name type position } } } }', { id: ctx.config.team_id })
  const states = ((data?.team?.states?.nodes ?? []) as { id: string; name: string; type: string; position: number }[]).sort((a, b) => a.position - b.position)
  const wanted = statusMapOf(ctx.config)[status]
  const state = wanted ? states.find((s) => s.name.toLowerCase() === wanted.toLowerCase()) : states.find((s) => s.type === STATE_TYPES[status])
  if (!state) throw new ProviderError(`${NAME} has no workflow state ${wanted ? `named ${wanted}` : `of type ${STATE_TYPES[status]}`} in the team`)
  return state
}

/** Linear (GraphQL): files new reports in a team as issues, moves them between workflow states with the report's status. */
export const linear: Provider = {
  key: 'linear',
  name: NAME,
  kind: 'tracker',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: { label: 'Personal API key', help: 'In Linear, open Settings, Security & access, Personal API keys, and create a key (lin_api_…).', url: 'https://linear.app/settings/account/security' },
  config: { team_id: 'the team to file in, picked from targets', status_map: 'optional: our status → workflow state name, e.g. {"resolved": "Done"}' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be a Linear personal API key')
    const teamId = requiredString(config, 'team_id')
    return { team_id: teamId, ...(config.status_map !== undefined && { status_map: statusMapOf(config) }) }
  },
  async targets(ctx) {
    const { data } = await gql(ctx, 'query { teams(first: 250) { nodes { id name key } } }')
    return ((data?.teams?.nodes ?? []) as { id: string; name: string; key: string }[]).map((t) => ({ id: t.id, name: t.name, group: t.key }))
  },
  async test(ctx) {
    const { data } = await gql(ctx, 'query($id: String!) { team(id: $id) { id name } }', { id: ctx.config.team_id })
    return `Linear accepted the key; issues go to the team ${data?.team?.name ?? ctx.config.team_id}`
  },
  actionsFor: trackerActions,
  async deliver(ctx, input, link) {
    const publicUrl = ctx.deps.config.publicUrl
    if (input.action === 'file') {
      if (link) return { statusCode: null, response: `already filed as ${link.externalId}`, link }
      const priority = PRIORITY[(input.payload.report?.priority as keyof typeof PRIORITY) ?? 'medium'] ?? 3
      const a = await gql(ctx, 'mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier url title state { name } } } }', {
        input: { teamId: ctx.config.team_id, title: issueTitle(input.payload), description: issueDescription(input.payload, publicUrl), priority },
      })
      const issue = a.data?.issueCreate?.issue
      if (!a.data?.issueCreate?.success || !issue) throw new ProviderError(`${NAME} did not create the issue`, a.status, a.text)
      const made: ExternalLink = { externalId: issue.identifier, url: issue.url, title: issue.title, state: issue.state?.name ?? null }
      return { statusCode: a.status, response: a.text, link: made }
    }
    if (!link) throw new ProviderError('the report has no Linear issue yet (its filing has not succeeded)')
    const state = await targetState(ctx, newStatus(input.payload))
    const a = await gql(ctx, 'mutation($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }', { id: link.externalId, input: { stateId: state.id } })
    return { statusCode: a.status, response: a.text, link: { ...link, state: state.name } }
  },
}
