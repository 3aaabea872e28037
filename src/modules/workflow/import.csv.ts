import { badRequest } from '../../http/errors'
import { parseCsv, uncsvCell } from '../reports/csv'
import { MAX_IMPORT_ITEMS } from './import.schemas'

/** Which export a CSV came from, told by its header. */
export type CsvLayout = 'glitchbox' | 'github' | 'jira'

const JIRA_STATUS: Record<string, string> = {
  open: 'open', 'to do': 'open', backlog: 'open', new: 'open', reopened: 'open', 'selected for development': 'open',
  'in progress': 'in_progress', 'in review': 'in_progress', 'in development': 'in_progress', testing: 'in_progress',
  done: 'resolved', resolved: 'resolved', fixed: 'resolved', closed: 'closed',
  "won't do": 'wont_fix', "won't fix": 'wont_fix', declined: 'wont_fix', rejected: 'wont_fix',
}
const JIRA_PRIORITY: Record<string, string> = {
  highest: 'critical', blocker: 'critical', critical: 'critical', high: 'high', major: 'high', medium: 'medium', normal: 'medium', low: 'low', lowest: 'low', minor: 'low', trivial: 'low',
}
const GITHUB_STATUS: Record<string, string> = {
  open: 'open', todo: 'open', backlog: 'open', 'in progress': 'in_progress', closed: 'closed', done: 'resolved', completed: 'resolved', 'not planned': 'wont_fix',
}
/** GitHub labels that name a priority or a category. */
const LABEL_PRIORITY: Record<string, string> = { critical: 'critical', p0: 'critical', 'priority: critical': 'critical', high: 'high', p1: 'high', 'priority: high': 'high', medium: 'medium', p2: 'medium', 'priority: medium': 'medium', low: 'low', p3: 'low', 'priority: low': 'low' }
const CATEGORIES = ['crash', 'visual', 'gameplay', 'performance', 'audio', 'ui', 'network']

/** Maps a header → column index, case-insensitive; the first of repeated columns (Jira repeats some) wins. */
function columns(header: string[]) {
  const at = new Map<string, number[]>()
  header.forEach((h, i) => {
    const key = h.trim().toLowerCase()
    at.set(key, [...(at.get(key) ?? []), i])
  })
  return {
    has: (name: string) => at.has(name),
    get: (row: string[], name: string) => {
      const idx = at.get(name)
      return idx ? uncsvCell(row[idx[0]!] ?? '').trim() : ''
    },
    /** Every non-empty value of a repeated column (Jira's Labels, Affects Version/s). */
    all: (row: string[], name: string) => (at.get(name) ?? []).map((i) => (row[i] ?? '').trim()).filter(Boolean),
  }
}

export function layoutOf(header: string[]): CsvLayout {
  const c = columns(header)
  if (c.has('issue key') && c.has('summary')) return 'jira'
  if (c.has('title') && (c.has('url') || c.has('body') || c.has('number') || c.has('state'))) return 'github'
  if (c.has('title')) return 'glitchbox'
  throw badRequest('unrecognised CSV: expected our export (report_number, title, description, …), a GitHub export (Title, Body, URL, State) or a Jira export (Summary, Issue key, Status, Priority)')
}

const orUndefined = (v: string) => (v === '' ? undefined : v)

/** Maps one record of a known layout to an import item (still to be validated like a JSON item). */
function itemOf(layout: CsvLayout, c: ReturnType<typeof columns>, row: string[]): Record<string, unknown> {
  if (layout === 'jira') {
    const key = c.get(row, 'issue key')
    const type = c.get(row, 'issue type').toLowerCase()
    return {
      title: c.get(row, 'summary'),
      description: c.get(row, 'description'),
      status: JIRA_STATUS[c.get(row, 'status').toLowerCase()] ?? 'open',
      priority: JIRA_PRIORITY[c.get(row, 'priority').toLowerCase()],
      category: CATEGORIES.find((k) => type.includes(k) || c.all(row, 'labels').some((l) => l.toLowerCase() === k)),
      platform: orUndefined(c.get(row, 'environment').slice(0, 100)),
      game_version: orUndefined(c.all(row, 'affects version/s')[0] ?? ''),
      external_id: orUndefined(key),
    }
  }
  if (layout === 'github') {
    const labels = c.get(row, 'labels').split(/[,;]/).map((l) => l.trim().toLowerCase()).filter(Boolean)
    const state = (c.get(row, 'status') || c.get(row, 'state')).toLowerCase()
    const url = c.get(row, 'url')
    return {
      title: c.get(row, 'title'),
      description: c.get(row, 'body'),
      status: GITHUB_STATUS[state] ?? 'open',
      priority: labels.map((l) => LABEL_PRIORITY[l]).find(Boolean),
      category: CATEGORIES.find((k) => labels.includes(k)),
      external_id: orUndefined(c.get(row, 'number') || url),
      external_url: orUndefined(url),
    }
  }
  // Our own export's columns, or the API's field names as headers.
  const pick = (name: string) => orUndefined(c.get(row, name))
  return {
    title: c.get(row, 'title'),
    description: c.get(row, 'description'),
    status: pick('status'),
    priority: pick('priority'),
    category: pick('category'),
    platform: pick('platform'),
    game_version: pick('game_version'),
    steps_to_reproduce: pick('steps_to_reproduce'),
    source: pick('source'),
    external_id: pick('external_id') ?? pick('report_number'),
    external_url: pick('external_url'),
  }
}

/** The import items of a CSV body (header row first); 400 for an unknown layout or more than 1,000 rows. */
export function itemsFromCsv(text: string): { layout: CsvLayout; items: Record<string, unknown>[] } {
  const records = parseCsv(text, MAX_IMPORT_ITEMS + 1)
  if (records === null) throw badRequest(`too many rows: at most ${MAX_IMPORT_ITEMS} reports per import`)
  const [header, ...rows] = records
  if (!header || rows.length === 0) throw badRequest('the CSV has no rows to import')
  const layout = layoutOf(header)
  const c = columns(header)
  return { layout, items: rows.map((row) => itemOf(layout, c, row)) }
}
