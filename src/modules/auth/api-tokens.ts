import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { MINUTE } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { createApiTokensRepository, type ApiTokenRow } from './api-tokens.repository'
import type { User } from './auth.sessions'

/** What an API token may do. */
export const API_TOKEN_SCOPES = ['debug_files.upload'] as const
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number]

/** Every API token begins so: a bearer token that does not is a session token. */
export const API_TOKEN_PREFIX = 'glb_'

/** How stale `last_used_at` may get before a use writes it again (not a write per upload request). */
const USE_WRITE_INTERVAL = 10 * MINUTE

/** A token as its owner's list shows it: never the token itself. */
export function apiTokenView(row: ApiTokenRow, projectSlug: string | null) {
  return {
    id: row.id,
    name: row.name,
    hint: `${row.hint}…`,
    scopes: row.scopes.split(' ') as ApiTokenScope[],
    project: projectSlug,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  }
}

/** Creates a token for `user` and returns its row with the token, which is shown this once (only its hash is stored). */
export async function createApiToken(db: Seam, input: { user: User; name: string; scopes: ApiTokenScope[]; projectId: string | null; now: Date }): Promise<{ row: ApiTokenRow; token: string }> {
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`
  const row: ApiTokenRow = {
    id: newId(), userId: input.user.id, name: input.name, tokenHash: sha256Hex(token), hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
    scopes: [...new Set(input.scopes)].join(' '), projectId: input.projectId, createdAt: input.now, lastUsedAt: null,
  }
  await createApiTokensRepository({ db }).insert(row)
  return { row, token }
}

/** Revokes one of the user's tokens; 404 when they have none with that id. */
export async function revokeApiToken(db: Seam, userId: string, id: string): Promise<{ message: string }> {
  if (!(await createApiTokensRepository({ db }).remove(userId, id))) throw notFound('API token not found')
  return { message: 'API token revoked' }
}

/** The token behind a presented API token and its user, or null; notes the use (at most every few minutes). */
export async function findApiToken(db: Seam, presented: string, now: Date): Promise<{ token: ApiTokenRow; user: User } | null> {
  if (!presented.startsWith(API_TOKEN_PREFIX)) return null
  const repo = createApiTokensRepository({ db })
  const found = await repo.byHash(sha256Hex(presented))
  if (!found) return null
  if (!found.token.lastUsedAt || now.getTime() - found.token.lastUsedAt.getTime() > USE_WRITE_INTERVAL) await repo.markUsed(found.token.id, now)
  return found
}

/** Whether a token carries a scope. */
export const hasScope = (token: ApiTokenRow, scope: ApiTokenScope): boolean => token.scopes.split(' ').includes(scope)
