// A process committing a row about every millisecond to the SQLite file argv[2] for argv[3] ms, as a
// running server's writers do; prints how many it wrote. Used by test/db/migrate-beside-writer.test.ts.
import { openSqlite } from '../../src/db/client'

const db = openSqlite(process.argv[2]!)
db.exec('CREATE TABLE IF NOT EXISTS steady_ticks (n INTEGER)')
const insert = db.query('INSERT INTO steady_ticks (n) VALUES (?)')
const end = Date.now() + Number(process.argv[3] ?? 2000)
let n = 0
while (Date.now() < end) {
  insert.run(n++)
  Bun.sleepSync(1)
}
db.close()
console.log(n)
