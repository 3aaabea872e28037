// The scoring thread (src/modules/sdk/scoring.ts): the answers of reports queued in the SDK inbox
// get their sentiment and possible duplicates beside the request thread, and the same values as
// scoring them inline; when the thread cannot answer, the request thread scores them itself.
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DB_FILE } from '../../src/deps'
import { createLogger } from '../../src/lib/logger'
import { fileQueued } from '../../src/modules/sdk/report-inbox'
import { type ScoreRequest, scoreInline, startScoringThread } from '../../src/modules/sdk/scoring'
import { sentimentText } from '../../src/modules/sdk/sentiment'
import { createSubmitRepository } from '../../src/modules/sdk/submit.repository'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { rows, sdkProject } from './sdk-helpers'

let t: TestApp
let stopThread: (() => void) | undefined
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => {
  stopThread?.()
  stopThread = undefined
  t.close()
})

const logger = createLogger('error')
const dbFile = () => join(t.deps.config.dataDir, DB_FILE)
const inline = (req: ScoreRequest) => scoreInline(createSubmitRepository(t.deps.db), req)
const request = (projectId: string, title: string, description: string): ScoreRequest => ({ projectId, title, text: sentimentText([title, description]) })

async function projectWithReports() {
  const { key, project } = await sdkProject(t)
  for (const title of ['Boss arena falls through the floor', 'Arena floor missing after boss', 'Inventory icons blurry', 'Boss music stops']) {
    createReportIn(t, project, { title })
  }
  return { key, project }
}

describe('the scoring thread', () => {
  it('scores like the request thread: sentiment and possible duplicates from its own connection', async () => {
    const { project } = await projectWithReports()
    const thread = await startScoringThread(dbFile(), inline, logger)
    stopThread = thread.stop
    const requests = [
      request(project.id, 'Floor of the boss arena vanishes', 'I love this game but this bug is terrible and frustrating.'),
      request(project.id, 'Blurry inventory', 'Great update, awesome art, thanks!'),
      request(project.id, 'Nothing alike here', ''),
    ]
    const answers = await Promise.all(requests.map((r) => thread.score(r)))
    expect(answers).toEqual(requests.map(inline))
    // Not vacuous: the first shares words with three reports (ranked by the share of words), and the texts differ in tone.
    expect(answers[0]!.possibleDuplicates).toEqual([2, 1, 4])
    expect(answers.map((a) => a.sentiment.level)).toEqual(['negative', 'positive', 'neutral'])
  })

  it('answers queued submits with its scores, and the inbox files each report with the sentiment its answer gave', async () => {
    const { key } = await projectWithReports()
    const thread = await startScoringThread(dbFile(), inline, logger)
    stopThread = thread.stop
    t.deps.scoring = thread
    t.deps.requestsBehind = () => true
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Boss arena floor gone', description: 'Awful, the worst bug, I hate falling forever.' } })
    expect(res.status).toBe(201)
    expect(rows(t, 'SELECT count(*) AS n FROM report_inbox')[0]!.n).toBe(1)
    expect(res.body.data).toMatchObject({ sentiment_level: 'negative', possible_duplicates: [2, 1, 4] })
    fileQueued(t.deps, 10)
    const [stored] = rows(t, 'SELECT sentiment_score, sentiment_level FROM reports WHERE id = ?', res.body.data.id)
    expect(stored).toEqual({ sentiment_score: res.body.data.sentiment_score, sentiment_level: res.body.data.sentiment_level })
  })

  it('once stopped (or failed), leaves the scoring to the calling thread', async () => {
    const { project } = await projectWithReports()
    const thread = await startScoringThread(dbFile(), inline, logger)
    thread.stop()
    const req = request(project.id, 'Boss arena floor', 'bad')
    expect(await thread.score(req)).toEqual(inline(req))
  })

  it('refuses to start on a database it cannot open, so the server scores inline instead', async () => {
    await expect(startScoringThread(join(t.deps.config.dataDir, 'missing', 'nothing.db'), inline, logger)).rejects.toThrow(/scoring thread failed to start/)
  })
})
