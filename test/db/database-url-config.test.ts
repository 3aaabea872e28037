import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { TEST_SECRET_KEY } from '../helpers/pg-engine'

describe('GLITCHBOX_DATABASE_URL', () => {
  it('keeps SQLite in the data directory unless a PostgreSQL URL is given', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined()
  })

  it('takes a postgres:// or postgresql:// URL with GLITCHBOX_SECRET_KEY', () => {
    for (const url of ['postgres://gb:pw@db:5432/glitchbox', 'postgresql://gb@db/glitchbox?sslmode=require']) {
      expect(loadConfig({ GLITCHBOX_DATABASE_URL: url, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY }).databaseUrl).toBe(url)
    }
  })

  it('refuses to start without GLITCHBOX_SECRET_KEY, naming it (nodes share no secrets.key)', () => {
    expect(() => loadConfig({ GLITCHBOX_DATABASE_URL: 'postgres://gb:pw@db/glitchbox' })).toThrow(/^GLITCHBOX_DATABASE_URL needs GLITCHBOX_SECRET_KEY/)
  })

  it('refuses another kind of URL without echoing it (it carries the password)', () => {
    let message = ''
    try {
      loadConfig({ GLITCHBOX_DATABASE_URL: 'mysql://gb:hunter2@db/glitchbox', GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY })
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toBe('invalid GLITCHBOX_DATABASE_URL=(hidden): must be a postgres:// or postgresql:// URL')
  })
})
