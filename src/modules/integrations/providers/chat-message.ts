import type { DeliveryInput } from './provider.types'
import { reportPageUrl } from '../../reports/report-links'

/** A chat message in plain parts, rendered by each chat provider in its own format. */
export interface ChatMessage {
  title: string
  /** `label: value` facts shown under the title. */
  facts: [string, string][]
  /** Free text (a description or comment, cut short). */
  text: string
  link: { label: string; url: string } | null
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** What a chat post says about one event: the report, what changed or the comment, and a link to the report. */
export function chatMessage(input: DeliveryInput, publicUrl: string): ChatMessage {
  const { payload } = input
  if (payload.summary) return { title: payload.summary.title, facts: [], text: payload.summary.lines.join('\n'), link: { label: 'Open Glitchbox', url: payload.summary.link } }
  const r = (payload.report ?? {}) as Record<string, any>
  const link = { label: `Open report #${r.report_number}`, url: reportPageUrl(publicUrl, payload.project.slug, Number(r.report_number)) }
  const base: [string, string][] = [
    ['Priority', String(r.priority ?? '')],
    ['Status', String(r.status ?? '')],
    ['Category', String(r.category ?? '')],
  ]
  if (r.platform) base.push(['Platform', String(r.platform)])
  if (r.game_version) base.push(['Version', String(r.game_version)])
  const where = `${payload.project.name} #${r.report_number}`
  if (input.event === 'bug_updated') {
    const facts = Object.entries(payload.changes ?? {}).map(([field, [from, to]]): [string, string] => [field, `${from ?? '—'} → ${to ?? '—'}`])
    return { title: `Bug updated in ${where}: ${r.title}`, facts, text: '', link }
  }
  if (input.event === 'comment_added') {
    const c = (payload.comment ?? {}) as Record<string, any>
    return { title: `New ${c.is_internal ? 'internal ' : ''}comment on ${where}: ${r.title}`, facts: [['By', String(c.author_name ?? 'someone')]], text: clip(String(c.body ?? ''), 1000), link }
  }
  if (input.event === 'test') return { title: `Test message from Glitchbox for ${payload.project.name}`, facts: [], text: 'This connection works: report events will be posted here.', link: null }
  return { title: `New bug in ${where}: ${r.title}`, facts: base, text: clip(String(r.description ?? ''), 1000), link }
}
