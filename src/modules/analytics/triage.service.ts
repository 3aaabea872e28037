import type { Db } from '../../db/client'
import { createAuthRepository } from '../auth/auth.repository'
import { liveReport } from '../reports/project-reports'
import { createReportsRepository } from '../reports/reports.repository'
import { similarTo } from '../reports/reports.search'
import { PRIORITIES } from '../reports/reports.types'
import { jaccard, titleWords } from './similarity'

/** Similar reports considered, and the scores that make a report similar or a likely duplicate. */
const TOP = 10
const SIMILAR_SCORE = 0.3
const DUPLICATE_SCORE = 0.6
const SAME_ERROR_TYPE_BONUS = 0.25
const ERROR_TYPE_CANDIDATES = 200
const DONE = ['resolved', 'closed']

/** The most common value (ties: the one `order` puts first) and how often it occurs. */
function mostCommon<T extends string>(values: T[], order: (a: T, b: T) => number): { value: T; n: number } | null {
  const counts = new Map<T, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  const best = [...counts].sort((a, b) => b[1] - a[1] || order(a[0], b[0]))[0]
  return best ? { value: best[0], n: best[1] } : null
}

/**
 * `/bugs/{number}/triage`: suggested priority, category, duplicates and assignee, each with its reason.
 * Similar reports: the 10 best full-text title matches and the 200 newest reports of the same error
 * type, scored by the Jaccard index of their title words (+0.25 for the same error type); a score of
 * 0.3 makes a report similar, 0.6 a likely duplicate; ties go to the newer report. Deterministic.
 */
export async function triage(db: Db, projectId: string, rawNumber: string) {
  const report = await liveReport(db, projectId, rawNumber)
  const fts = (await similarTo(db, projectId, report.title)).map((r) => r.report_number)
  const reports = createReportsRepository({ db })
  const candidates = [
    ...(fts.length ? await reports.similarCandidates(projectId, { exceptId: report.id, numbers: fts, limit: fts.length }) : []),
    ...(report.errorType ? await reports.similarCandidates(projectId, { exceptId: report.id, errorTypes: [report.errorType], limit: ERROR_TYPE_CANDIDATES }) : []),
  ]
  const words = titleWords(report.title)
  const scored = [...new Map(candidates.map((c) => [c.seq, c])).values()]
    .map((c) => ({ ...c, score: jaccard(words, titleWords(c.title)) + (report.errorType && c.errorType === report.errorType ? SAME_ERROR_TYPE_BONUS : 0) }))
    .filter((c) => c.score >= SIMILAR_SCORE)
    .sort((a, b) => b.score - a.score || b.seq - a.seq)
  const similar = scored.slice(0, TOP)

  const prio = mostCommon(similar.map((s) => s.priority), (a, b) => PRIORITIES.indexOf(a) - PRIORITIES.indexOf(b))
  const priority = prio
    ? { value: prio.value, reason: `${prio.n} of the ${similar.length} most similar reports have priority ${prio.value}` }
    : report.errorType || report.category === 'crash'
      ? { value: 'high' as const, reason: 'no similar reports; a crash or error report starts at high' }
      : { value: report.priority, reason: 'no similar reports; the current priority is kept' }

  const cat = mostCommon(similar.map((s) => s.category), (a, b) => (a < b ? -1 : 1))
  const category = report.errorType
    ? { value: 'crash' as const, reason: `the report carries the error type ${report.errorType}` }
    : cat
      ? { value: cat.value, reason: `${cat.n} of the ${similar.length} most similar reports are in ${cat.value}` }
      : { value: report.category, reason: 'no similar reports; the current category is kept' }

  const duplicates = scored
    .filter((s) => s.score >= DUPLICATE_SCORE)
    .slice(0, 5)
    .map((s) => ({
      report_number: s.reportNumber,
      title: s.title,
      status: s.status,
      score: Math.round(s.score * 100) / 100,
      reason: `${Math.round(jaccard(words, titleWords(s.title)) * 100)}% of title words shared${report.errorType && s.errorType === report.errorType ? `, same error type ${report.errorType}` : ''}`,
    }))

  const resolved = scored.filter((s) => DONE.includes(s.status) && s.assignedTo).slice(0, TOP)
  const who = mostCommon(resolved.map((s) => s.assignedTo!), (a, b) => (a < b ? -1 : 1))
  const name = who ? ((await createAuthRepository({ db }).namesOf([who.value])).get(who.value) ?? who.value) : null
  const assignee = who
    ? { user_id: who.value, name, reason: `${who.n} of the ${resolved.length} most similar resolved reports were assigned to ${name}` }
    : { user_id: null, name: null, reason: 'no similar resolved report had an assignee' }

  return {
    report_number: report.reportNumber,
    priority,
    category,
    duplicates,
    assignee,
    similar: similar.map((s) => ({ report_number: s.reportNumber, title: s.title, status: s.status, score: Math.round(s.score * 100) / 100 })),
  }
}
