import { sql } from 'drizzle-orm'
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { describe, expect, it } from 'vitest'
import { backup, restore } from '../../src/cli/backup'
import { execute } from '../../src/db/client'
import { decryptSecret } from '../../src/modules/integrations/credentials.crypto'
import { createSecrets } from '../../src/secrets/secrets'
import { onSqlite } from '../helpers/pg-engine'
import { ROOT } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { connect, integrationsTestbed } from './helpers'

const bed = integrationsTestbed()
const PD_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF'

describe.skipIf(!onSqlite)('backups carry secrets.key (SQLite: the data directory and its key; PostgreSQL needs GLITCHBOX_SECRET_KEY)', () => {
  it('restores a data directory whose stored credentials still decrypt, the key at mode 0600', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const work = tempDir('integrations-backup')
    try {
      const archive = join(work, 'backup.tar.gz')
      await backup(bed.t.dir, archive)
      const restored = join(work, 'restored')
      await restore(restored, archive)
      expect(readFileSync(join(restored, 'secrets.key'), 'utf8')).toBe(readFileSync(join(bed.t.dir, 'secrets.key'), 'utf8'))
      expect(statSync(join(restored, 'secrets.key')).mode & 0o777).toBe(0o600)
      const db = new Database(join(restored, 'glitchbox.db'), { readonly: true })
      const row = db.query('select secret_enc from integrations where id = ?').get(id) as { secret_enc: string }
      db.close()
      expect(await decryptSecret(createSecrets({ dataDir: restored }), row.secret_enc, id)).toBe(PD_KEY)
      // Bound to its connection: the same ciphertext does not open as another one's.
      await expect(decryptSecret(createSecrets({ dataDir: restored }), row.secret_enc, 'another-id')).rejects.toThrow()
    } finally {
      removeTempDir(work)
    }
  })
})

describe.skipIf(!onSqlite)("a credential the key cannot open (SQLite: the data directory's secrets.key names itself)", () => {
  it('says to enter it again instead of failing obscurely', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    await bed.t.deps.db.write((q) => execute(q, sql`update integrations set secret_enc = ${'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAAAA'} where id = ${id}`))
    const res = await bed.t.request('POST', `${bed.base}/pagerduty/${id}/test`, { token: bed.owner.token })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/cannot be read with this server's secrets\.key; enter it again/)
    expect((await bed.t.request('PATCH', `${bed.base}/pagerduty/${id}`, { token: bed.owner.token, body: { secret: PD_KEY } })).status).toBe(200)
    bed.fake.answer = () => new Response(JSON.stringify({ status: 'success' }), { status: 202 })
    expect((await bed.t.request('POST', `${bed.base}/pagerduty/${id}/test`, { token: bed.owner.token })).status).toBe(200)
  })
})

describe.skipIf(!onSqlite)('the backup archive (SQLite: glitchbox backup archives the data directory; on PostgreSQL it says to use pg_dump)', () => {
  it('is written with mode 0600 under the usual umask, also over an existing readable file', async () => {
    const work = tempDir('integrations-backup')
    try {
      const archive = join(work, 'backup.tar.gz')
      writeFileSync(archive, 'an older backup')
      chmodSync(archive, 0o644)
      // The real command under umask 022, as a cron job or a shell would run it.
      const main = join(ROOT, 'src/main.ts')
      const run = Bun.spawnSync(['sh', '-c', `umask 022 && exec "${process.execPath}" "${main}" backup "${archive}"`], { env: { ...process.env, GLITCHBOX_DATA_DIR: bed.t.dir } })
      expect(run.exitCode).toBe(0)
      expect(statSync(archive).mode & 0o777).toBe(0o600)
      expect(readdirSync(work)).toEqual(['backup.tar.gz'])
    } finally {
      removeTempDir(work)
    }
  })
})
