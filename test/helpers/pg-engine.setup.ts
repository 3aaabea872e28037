import { afterAll } from 'vitest'
import { settleTestDatabases, testPgServer } from './pg-engine'

// After each test file in the suite's PostgreSQL mode: the databases its test apps left to drop are
// dropped (pg-engine.ts), and its maintenance connection closes.
if (testPgServer()) afterAll(() => settleTestDatabases())
