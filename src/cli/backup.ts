import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { openSqlite } from '../db/client'
import { makeDataDirPrivate, makePrivateDir } from '../db/data-dir'
import { migrate } from '../db/migrate'
import { integrityProblem, snapshotDatabase } from '../db/snapshot'
import { DB_FILE } from '../deps'
import { randomToken } from '../lib/ids'
import { databaseParts } from '../modules/registry'
import { SECRETS_KEY_FILE } from '../secrets/secrets'

// tar is loaded by the backup and restore commands only: every server start would pay for it (issue 30).
const loadTar = () => require('tar') as typeof import('tar')

/** Hard-links every blob under `from` into `to` (cheap, and a link survives the original's deletion). */
function linkTree(from: string, to: string): number {
  if (!existsSync(from)) return 0
  let n = 0
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from)) {
    const src = join(from, entry)
    const dst = join(to, entry)
    if (statSync(src).isDirectory()) n += linkTree(src, dst)
    else if (!existsSync(dst)) {
      linkSync(src, dst)
      n++
    }
  }
  return n
}

/**
 * Writes a consistent snapshot of a (possibly running) server into one .tar.gz: the database via
 * `VACUUM INTO` (a transactionally consistent copy that WAL readers take without blocking writers)
 * and the files. Files are linked before and after the snapshot, so every file the snapshot
 * references is in the archive unless it was created and deleted in between. The key of stored
 * integration credentials (`secrets.key`) goes with them: without it they cannot be read. That key
 * opens every stored credential, so the archive is written with mode 0600 whatever the umask (it
 * was 0644 under the usual one): into a new file beside FILE, created 0600, then renamed over it.
 */
export async function backup(dataDir: string, file: string): Promise<{ files: number; bytes: number }> {
  if (!existsSync(join(dataDir, DB_FILE))) throw new Error(`no database in ${dataDir}`)
  const staging = join(dataDir, 'tmp', `backup-${randomToken(8)}`)
  mkdirSync(staging, { recursive: true })
  try {
    let files = linkTree(join(dataDir, 'files'), join(staging, 'files'))
    snapshotDatabase(join(dataDir, DB_FILE), join(staging, DB_FILE))
    files += linkTree(join(dataDir, 'files'), join(staging, 'files'))
    mkdirSync(join(staging, 'files'), { recursive: true })
    const withKey = existsSync(join(dataDir, SECRETS_KEY_FILE))
    if (withKey) copyFileSync(join(dataDir, SECRETS_KEY_FILE), join(staging, SECRETS_KEY_FILE))
    const target = resolve(file)
    const partial = join(dirname(target), `.${basename(target)}.${randomToken(8)}.partial`)
    try {
      await loadTar().c({ gzip: true, file: partial, mode: 0o600, cwd: staging, portable: true }, [DB_FILE, 'files', ...(withKey ? [SECRETS_KEY_FILE] : [])])
      renameSync(partial, target)
    } finally {
      rmSync(partial, { force: true })
    }
    return { files, bytes: statSync(target).size }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Unpacks a backup into an empty data directory and checks the database opens and migrates. */
export async function restore(dataDir: string, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`backup file ${file} does not exist`)
  if (existsSync(join(dataDir, DB_FILE))) throw new Error(`${dataDir} already holds a database; restore needs an empty data directory`)
  makePrivateDir(dataDir)
  await loadTar().x({ file, cwd: dataDir, strict: true, filter: (path) => path === DB_FILE || path === SECRETS_KEY_FILE || path.startsWith('files/') || path === 'files' })
  if (!existsSync(join(dataDir, DB_FILE))) throw new Error('the archive holds no glitchbox.db: not a Glitchbox backup')
  makeDataDirPrivate(dataDir, join(dataDir, DB_FILE))
  if (existsSync(join(dataDir, SECRETS_KEY_FILE))) chmodSync(join(dataDir, SECRETS_KEY_FILE), 0o600)
  const sqlite = openSqlite(join(dataDir, DB_FILE))
  try {
    const problem = integrityProblem(sqlite)
    if (problem) throw new Error(`restored database failed its integrity check: ${problem}`)
    migrate(sqlite, databaseParts)
  } finally {
    sqlite.close()
  }
}
