import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, timestamp, updatedAt } from '../../db/columns'

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Stored lower-cased: uniqueness is case-insensitive. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id hash; null for accounts that only sign in with Google or Apple. */
    passwordHash: text('password_hash'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    theme: text('theme'),
    role: text('role'),
    emailVerified: bool('email_verified').notNull().default(false),
    onboardingDone: bool('onboarding_done').notNull().default(false),
    googleSub: text('google_sub'),
    appleSub: text('apple_sub'),
    /** The team account the user works in (their own, or the last one whose invitation they accepted). */
    currentAccountId: text('current_account_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_google_sub_unique').on(t.googleSub),
    uniqueIndex('users_apple_sub_unique').on(t.appleSub),
  ],
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
)

/** Email verification links: single use, expiring; only the SHA-256 of the token is stored. */
export const emailVerifications = sqliteTable(
  'email_verifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
  },
  (t) => [uniqueIndex('email_verifications_token_hash_unique').on(t.tokenHash), index('email_verifications_user_idx').on(t.userId, t.createdAt)],
)

/** One temporary support share code per user; a new code replaces the old. Stored hashed (shown once). */
export const supportShareCodes = sqliteTable(
  'support_share_codes',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [uniqueIndex('support_share_codes_code_hash_unique').on(t.codeHash)],
)

/** Password reset links: single use, valid one hour; only the SHA-256 of the token is stored. */
export const passwordResets = sqliteTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
  },
  (t) => [uniqueIndex('password_resets_token_hash_unique').on(t.tokenHash), index('password_resets_user_idx').on(t.userId, t.createdAt)],
)

/**
 * Failed password checks per account, kept 15 minutes, for the per-account login throttle. Keyed by
 * the SHA-256 of the normalised email, so unknown addresses are counted alike and not stored in clear.
 */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountKey: text('account_key').notNull(),
    failedAt: timestamp('failed_at').notNull(),
  },
  (t) => [index('login_failures_account_idx').on(t.accountKey, t.failedAt)],
)

/** Accounts whose password sign-in is paused after too many failures, until `locked_until`. */
export const loginLockouts = sqliteTable('login_lockouts', {
  accountKey: text('account_key').primaryKey(),
  lockedUntil: timestamp('locked_until').notNull(),
})

/**
 * API tokens a person creates for tools (sentry-cli in a build pipeline): shown once, only the
 * SHA-256 is stored, as for sessions. Each carries scopes and, optionally, the one project it acts on.
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters, so a list can tell tokens apart without holding them. */
    hint: text('hint').notNull(),
    /** Space-separated scopes (`debug_files.upload`). */
    scopes: text('scopes').notNull(),
    /** The one project the token acts on; null: every project its user can see. */
    projectId: text('project_id'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at'),
  },
  (t) => [uniqueIndex('api_tokens_token_hash_unique').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
)
