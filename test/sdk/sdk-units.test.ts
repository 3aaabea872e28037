import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { migrate } from '../../src/db/migrate'
import { reports } from '../../src/modules/reports/reports.table'
import { decodeBase64Upload } from '../../src/modules/sdk/base64-upload'
import { findPossibleDuplicates } from '../../src/modules/ingest/duplicates'
import { significantWords, titleTermsOf } from '../../src/modules/reports/title-terms'
import { createIngestRepository } from '../../src/modules/ingest/ingest.repository'
import { splitOccurrences } from '../../src/modules/ingest/occurrences.service'
import { NEGATIVE_AT, POSITIVE_AT, scoreSentiment, sentimentLevelOf } from '../../src/modules/ingest/sentiment'
import { submitFromSdk } from '../../src/modules/sdk-api/submit.adapter'
import { createEventsRepository, trackEvents } from '../../src/modules/sdk/events.service'
import { submitSchema } from '../../src/modules/sdk/sdk.schemas'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { PNG, sdkProject } from './sdk-helpers'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows, sqlRun } from '../helpers/sql-rows'
import { execute } from '../../src/db/client'
import { databaseParts } from '../../src/modules/registry'

describe('sentiment', () => {
  it.each([
    ['Love this game, amazing levels, great fun', 'positive'],
    ['Terrible crash, I hate losing my progress, awful', 'negative'],
    ['The door in level 3 does not open after the cutscene', 'neutral'],
  ])('scores "%s" as %s', (text, level) => {
    expect(scoreSentiment([text]).level).toBe(level)
  })

  it('maps the comparative score at the documented thresholds', () => {
    expect(sentimentLevelOf(POSITIVE_AT)).toBe('positive')
    expect(sentimentLevelOf(POSITIVE_AT - 0.001)).toBe('neutral')
    expect(sentimentLevelOf(NEGATIVE_AT)).toBe('negative')
    expect(sentimentLevelOf(NEGATIVE_AT + 0.001)).toBe('neutral')
  })

  it('rounds the score to 3 decimals, scores title, description and steps together, and 0 for no text', () => {
    const { score } = scoreSentiment(['Good', 'fine bad thing', undefined, 'x'])
    expect(Math.round(score * 1000) / 1000).toBe(score)
    expect(score).not.toBe(scoreSentiment(['Good']).score)
    expect(scoreSentiment(['', null])).toEqual({ score: 0, level: 'neutral' })
  })
})

describe('title terms', () => {
  it('keeps significant words: 3+ letters, no stop words or numbers, accents folded', () => {
    expect([...significantWords('The Café crashes when I open it 2 times in 1999!')]).toEqual(['cafe', 'crashes', 'open', 'times'])
  })

  it('splits on anything but letters and digits, and stores the words as a JSON array', () => {
    expect([...significantWords('save_game_slot "NEAR(boom)" title:x*')]).toEqual(['save', 'game', 'slot', 'near', 'boom', 'title'])
    expect(JSON.parse(titleTermsOf('Save file SAVE file'))).toEqual(['save', 'file'])
    expect(titleTermsOf('a an of 42')).toBe('[]')
  })
})

describe('services', () => {
  let t: TestApp
  beforeEach(() => {
    t = createTestApp()
  })
  afterEach(() => t.close())

  it('findPossibleDuplicates ranks by shared words and leaves out closed or deleted reports', async () => {
    const { project } = await sdkProject(t)
    const repo = createIngestRepository({ db: t.deps.db })
    const b = await createReportIn(t, project, { title: 'Save file corrupted' })
    const c = await createReportIn(t, project, { title: 'Save button missing' })
    const gone = await createReportIn(t, project, { title: 'Save file corrupted after update again' })
    await sqlRun(t, 'UPDATE reports SET deleted_at = 1 WHERE id = ?', gone.id)
    expect(await findPossibleDuplicates(repo, project.id, 'Save file corrupted after update')).toEqual([b.reportNumber, c.reportNumber])
    await t.deps.db.write((q) => q.update(reports).set({ status: 'closed' }).where(sql`${reports.id} = ${b.id}`))
    expect(await findPossibleDuplicates(repo, project.id, 'Save file corrupted after update')).toEqual([c.reportNumber])
    expect(await findPossibleDuplicates(repo, project.id, 'of the')).toEqual([])
  })

  it('findPossibleDuplicates follows reopened, renamed and removed reports and stays inside the project', async () => {
    const { project, owner } = await sdkProject(t)
    const other = await createProject(t, await createUser(t))
    const repo = createIngestRepository({ db: t.deps.db })
    const a = await createReportIn(t, project, { title: 'Lighthouse door stuck' })
    await createReportIn(t, other, { title: 'Lighthouse door stuck' })
    const probe = () => findPossibleDuplicates(repo, project.id, 'Lighthouse door stuck forever')
    expect(await probe()).toEqual([a.reportNumber])
    await sqlRun(t, "UPDATE reports SET status = 'resolved' WHERE id = ?", a.id)
    expect(await probe()).toEqual([])
    await sqlRun(t, "UPDATE reports SET status = 'in_progress' WHERE id = ?", a.id)
    expect(await probe()).toEqual([a.reportNumber])
    const renamed = await t.request('PATCH', `/api/projects/${project.slug}/bugs/${a.reportNumber}`, { token: owner.token, body: { title: 'Windmill blades frozen' } })
    expect(renamed.status).toBe(200)
    expect(await probe()).toEqual([])
    expect(await findPossibleDuplicates(repo, project.id, 'Windmill frozen')).toEqual([a.reportNumber])
    await sqlRun(t, 'DELETE FROM reports WHERE id = ?', a.id)
    expect(await findPossibleDuplicates(repo, project.id, 'Windmill frozen')).toEqual([])
  })

  it.skipIf(!onSqlite)('the open-title index is filled from existing reports when a database first gets it (SQLite: migration backfill)', async () => {
    const { project } = await sdkProject(t)
    const a = await createReportIn(t, project, { title: 'Ferris wheel spins backwards' })
    const closed = await createReportIn(t, project, { title: 'Ferris wheel closed ride' })
    await sqlRun(t, "UPDATE reports SET status = 'closed' WHERE id = ?", closed.id)
    // A database from before the index: reports without words, no index table.
    t.sqlite.exec('UPDATE reports SET title_terms = NULL')
    t.sqlite.exec('DROP TABLE open_title_terms')
    migrate(t.sqlite, databaseParts)
    expect(await findPossibleDuplicates(createIngestRepository({ db: t.deps.db }), project.id, 'Ferris wheel')).toEqual([a.reportNumber])
    expect(await sqlRows(t, 'SELECT title_terms FROM reports ORDER BY seq')).toEqual([{ title_terms: '["ferris","wheel","spins","backwards"]' }, { title_terms: '["ferris","wheel","closed","ride"]' }])
  })

  it('submitReport stacks a same-title submission and leaves the original report fields as they were', async () => {
    const { project } = await sdkProject(t)
    const input = (o: Record<string, unknown>) => submitSchema.parse({ title: 'Hang at save', description: 'x', ...o })
    const first = await submitFromSdk(t.deps, project, input({ device_info: 'A' }))
    const second = await submitFromSdk(t.deps, project, input({ title: 'HANG  at save', device_info: 'B' }))
    expect(first.created).toBe(true)
    expect(second).toMatchObject({ created: false, body: { id: first.body.id, deduplicated: true } })
    expect(await sqlRows(t, 'SELECT device_info, occurrence_count FROM reports')).toEqual([{ device_info: 'A', occurrence_count: 2 }])
  })

  it('a renamed report groups submissions under its new title, not its old one', async () => {
    const { project, owner } = await sdkProject(t)
    const submit = (title: string) => submitFromSdk(t.deps, project, submitSchema.parse({ title, description: 'x' }))
    const first = await submit('Sky flickers')
    await t.request('PATCH', `/api/projects/${project.slug}/bugs/${first.body.report_number}`, { token: owner.token, body: { title: 'Sky  FLICKERS at night' } })
    expect(await submit('sky flickers at night')).toMatchObject({ created: false, body: { id: first.body.id } })
    expect((await submit('Sky flickers')).created).toBe(true)
  })

  it('submitReport removes stored files when the transaction fails', async () => {
    const { project } = await sdkProject(t)
    await sqlRun(t, 'DROP TABLE attachments')
    const input = submitSchema.parse({ title: 'x', description: 'y', screenshot: Buffer.from(PNG).toString('base64'), attachments: [{ filename: 'a.txt', data: Buffer.from('hello').toString('base64') }] })
    await expect(submitFromSdk(t.deps, project, input)).rejects.toThrow()
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('splitOccurrences keeps at least one occurrence with the original', async () => {
    const { project, owner } = await sdkProject(t)
    const input = submitSchema.parse({ title: 'Same', description: 'x' })
    const first = await submitFromSdk(t.deps, project, input)
    await submitFromSdk(t.deps, project, input)
    await submitFromSdk(t.deps, project, input)
    const ids = (await sqlRows(t, 'SELECT id FROM report_occurrences')).map((r) => r.id as string)
    await expect(splitOccurrences(t.deps, project, owner.user.id, String(first.body.report_number), [...ids, ids[0]!])).rejects.toThrow('at least one occurrence must stay')
    const split = await splitOccurrences(t.deps, project, owner.user.id, String(first.body.report_number), ids.slice(1))
    expect(await sqlRows(t, 'SELECT report_number, occurrence_count FROM reports ORDER BY report_number')).toEqual([
      { report_number: 1, occurrence_count: 1 },
      { report_number: split.report_number, occurrence_count: 2 },
    ])
  })
})

describe('base64 uploads', () => {
  it('decodes bare base64, URL-safe base64 and data URLs (their type becomes the declared type)', () => {
    expect(decodeBase64Upload(Buffer.from(PNG).toString('base64'), 'f')).toEqual({ bytes: Buffer.from(PNG), declaredType: null })
    expect(decodeBase64Upload(`data:image/png;base64,${Buffer.from(PNG).toString('base64')}`, 'f').declaredType).toBe('image/png')
    expect(decodeBase64Upload('data:text/plain;charset=utf-8;base64,aGk=', 'f')).toEqual({ bytes: Buffer.from('hi'), declaredType: 'text/plain' })
    expect(Buffer.from(decodeBase64Upload(Buffer.from([251, 255]).toString('base64url'), 'f').bytes)).toEqual(Buffer.from([251, 255]))
  })

  it('rejects text that is not base64, and empty data, naming the field', () => {
    expect(() => decodeBase64Upload('hello world!', 'screenshot')).toThrow(/screenshot: not valid base64/)
    expect(() => decodeBase64Upload('data:image/png;base64,', 'screenshot')).toThrow(/screenshot: file is empty/)
  })
})

describe('The group commit (db.write)', () => {
  let t: TestApp
  beforeEach(() => {
    t = createTestApp()
  })
  afterEach(() => t.close())

  it('commits writes of one turn together; a failing write rolls back alone', async () => {
    await sqlRun(t, 'CREATE TABLE bt (v TEXT)')
    const batcher = t.deps.db
    const insert = (v: string) =>
      batcher.write(async (tx) => {
        await execute(tx, sql`INSERT INTO bt (v) VALUES (${v})`)
        return v
      })
    const failing = batcher.write(async (tx) => {
      await execute(tx, sql`INSERT INTO bt (v) VALUES ('doomed')`)
      throw new Error('nope')
    })
    const results = await Promise.allSettled([insert('a'), failing, insert('b')])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(await sqlRows(t, 'SELECT v FROM bt ORDER BY v')).toEqual([{ v: 'a' }, { v: 'b' }])
  })

  it('keeps the event-name cache to committed ids when a shared batch rolls back', async () => {
    const { project, owner } = await sdkProject(t, 'pro')
    const account = owner.account
    const repo = createEventsRepository(t.deps.db)
    const batcher = t.deps.db
    // Queued in the same turn, the tracking first: the shared transaction fails after the new name
    // was inserted, rolls back, then each write runs alone.
    const tracking = trackEvents(t.deps, repo, batcher, project, account, [{ event_name: 'boss_kill' }])
    const failing = batcher.write(() => {
      throw new Error('nope')
    })
    const [tracked] = await Promise.allSettled([tracking, failing])
    expect(tracked.status).toBe('fulfilled')
    await trackEvents(t.deps, repo, batcher, project, account, [{ event_name: 'boss_kill' }])
    expect(await sqlRows(t, 'SELECT n.name, count(*) AS c FROM events e JOIN event_names n ON n.id = e.name_id GROUP BY n.name')).toEqual([{ name: 'boss_kill', c: 2 }])
    expect([...repo.nameIds.values()]).toEqual([(await sqlRows(t, 'SELECT id FROM event_names'))[0]!.id])
  })

  it('rolls a lone failing write back', async () => {
    await sqlRun(t, 'CREATE TABLE bt (v TEXT)')
    const batcher = t.deps.db
    await expect(
      batcher.write(async (tx) => {
        await execute(tx, sql`INSERT INTO bt (v) VALUES ('x')`)
        throw new Error('nope')
      }),
    ).rejects.toThrow('nope')
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM bt'))[0]!.n).toBe(0)
  })
})
