import * as z from 'zod'
import { resolve } from 'node:path'
import { parseTrustProxy } from '../http/client-ip'
import { decodeSecretKey } from '../secrets/secrets'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v))

const url = z.string().url()

const rateLimit = z.coerce.number().int('must be a whole number').min(0).max(1_000_000)

// AWS's rules for new buckets: 3 to 63 lower-case letters, digits, dots and hyphens.
const bucketName = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)')

const secretKeySchema = z.string().refine((v) => decodeSecretKey(v) !== null, 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)')

const trustProxySchema = z.string().transform((v, ctx) => {
  try {
    return parseTrustProxy(v)
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message })
    return z.NEVER
  }
})

/** Each leaf: env name, schema, default, doc. The README table mirrors this list. */
const fields = {
  port: { env: 'PORT', schema: z.coerce.number().int().min(0).max(65535), default: '8080', doc: 'listen port' },
  host: { env: 'HOST', schema: z.string().min(1), default: '0.0.0.0', doc: 'listen address' },
  dataDir: { env: 'GLITCHBOX_DATA_DIR', schema: z.string().min(1), default: './glitchbox-data', doc: 'everything the server stores' },
  databaseUrl: {
    env: 'GLITCHBOX_DATABASE_URL',
    // The URL carries the database password: never echoed.
    secret: true,
    schema: z.string().regex(/^postgres(ql)?:\/\/[^\s]+$/, 'must be a postgres:// or postgresql:// URL').optional(),
    default: undefined,
    doc: 'PostgreSQL 15+ database (postgres://user:pass@host:port/db) instead of SQLite in the data directory',
  },
  publicUrl: { env: 'GLITCHBOX_PUBLIC_URL', schema: url.optional(), default: undefined, doc: 'base of links in emails and file_url values' },
  trustProxy: {
    env: 'GLITCHBOX_TRUST_PROXY',
    schema: trustProxySchema,
    default: 'false',
    doc: 'proxies in front: false (socket address), true (one: the right-most X-Forwarded-For) or a number of hops (believed only from a loopback, private or link-local peer), or trusted proxy CIDRs',
  },
  rateLimitGlobal: { env: 'GLITCHBOX_RATE_LIMIT_GLOBAL', schema: rateLimit, default: '300', doc: 'requests a minute per client IP over every route; 0 turns it off' },
  rateLimitPublic: { env: 'GLITCHBOX_RATE_LIMIT_PUBLIC', schema: rateLimit, default: '30', doc: 'requests a minute per client IP to public and SDK routes; 0 turns it off' },
  rateLimitPerf: { env: 'GLITCHBOX_RATE_LIMIT_PERF', schema: rateLimit, default: '120', doc: 'requests a minute per client IP to /api/perf/snapshot and /api/session-replays; 0 turns it off' },
  rateLimitAuth: { env: 'GLITCHBOX_RATE_LIMIT_AUTH', schema: rateLimit, default: '10', doc: 'requests a minute per client IP to login, signup, resend-verification and password reset; 0 turns it off' },
  smtpUrl: {
    env: 'GLITCHBOX_SMTP_URL',
    schema: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
    default: undefined,
    doc: 'SMTP server; unset keeps mails in the outbox table',
  },
  mailFrom: { env: 'GLITCHBOX_MAIL_FROM', schema: z.string().min(3), default: 'Glitchbox <noreply@localhost>', doc: 'sender' },
  defaultPlan: {
    env: 'GLITCHBOX_DEFAULT_PLAN',
    schema: z.enum(['self_hosted', 'free', 'pro', 'studio']).optional(),
    default: undefined,
    doc: 'plan of new accounts: self_hosted, free, pro or studio (default self_hosted without billing, free with billing)',
  },
  allowPrivateTargets: { env: 'GLITCHBOX_ALLOW_PRIVATE_TARGETS', schema: bool, default: 'false', doc: 'let webhooks reach private addresses' },
  stripeSecretKey: { env: 'GLITCHBOX_STRIPE_SECRET_KEY', schema: z.string().min(1).optional(), default: undefined, doc: 'Stripe secret key' },
  stripeWebhookSecret: { env: 'GLITCHBOX_STRIPE_WEBHOOK_SECRET', schema: z.string().min(1).optional(), default: undefined, doc: 'Stripe webhook signing secret' },
  stripePricePro: { env: 'GLITCHBOX_STRIPE_PRICE_PRO', schema: z.string().min(1).optional(), default: undefined, doc: 'Stripe price of pro' },
  stripePriceStudio: { env: 'GLITCHBOX_STRIPE_PRICE_STUDIO', schema: z.string().min(1).optional(), default: undefined, doc: 'Stripe price of studio' },
  googleClientId: { env: 'GLITCHBOX_GOOGLE_CLIENT_ID', schema: z.string().min(1).optional(), default: undefined, doc: 'Google sign-in audience' },
  appleClientId: { env: 'GLITCHBOX_APPLE_CLIENT_ID', schema: z.string().min(1).optional(), default: undefined, doc: 'Apple sign-in audience' },
  logLevel: { env: 'GLITCHBOX_LOG_LEVEL', schema: z.enum(['debug', 'info', 'warn', 'error']), default: 'info', doc: 'log level' },
  retentionDays: {
    env: 'GLITCHBOX_RETENTION_DAYS',
    schema: z.coerce.number().int().min(0).max(36_500),
    default: '90',
    doc: 'days raw telemetry (events, performance snapshots, play sessions) is kept; daily rollups stay; 0 keeps forever',
  },
  replayRetentionDays: {
    env: 'GLITCHBOX_REPLAY_RETENTION_DAYS',
    schema: z.coerce.number().int().min(0).max(36_500),
    default: '30',
    doc: 'days session replays and their files are kept; 0 keeps forever',
  },
  s3Bucket: { env: 'GLITCHBOX_S3_BUCKET', schema: bucketName.optional(), default: undefined, doc: 'keep files in this S3-compatible bucket instead of the data directory' },
  s3Endpoint: {
    env: 'GLITCHBOX_S3_ENDPOINT',
    schema: z.string().regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http:// or https:// origin such as http://127.0.0.1:9000').optional(),
    default: undefined,
    doc: 'S3-compatible endpoint, addressed path-style (unset: AWS)',
  },
  s3Region: { env: 'GLITCHBOX_S3_REGION', schema: z.string().regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as us-east-1'), default: 'us-east-1', doc: 'S3 region' },
  s3AccessKeyId: { env: 'GLITCHBOX_S3_ACCESS_KEY_ID', fallback: 'AWS_ACCESS_KEY_ID', schema: z.string().min(1).optional(), default: undefined, doc: 'S3 access key id (else AWS_ACCESS_KEY_ID)' },
  s3SecretAccessKey: {
    env: 'GLITCHBOX_S3_SECRET_ACCESS_KEY',
    fallback: 'AWS_SECRET_ACCESS_KEY',
    secret: true,
    schema: z.string().min(1).optional(),
    default: undefined,
    doc: 'S3 secret access key (else AWS_SECRET_ACCESS_KEY)',
  },
  s3Prefix: {
    env: 'GLITCHBOX_S3_PREFIX',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, 'must be a key prefix of letters, digits, dots, hyphens and underscores in /-separated parts, such as glitchbox/')
      .transform((v) => (v.endsWith('/') ? v : `${v}/`))
      .optional(),
    default: undefined,
    doc: 'folder of the keys in the bucket (empty: the bucket root)',
  },
  secretKey: {
    env: 'GLITCHBOX_SECRET_KEY',
    secret: true,
    schema: secretKeySchema.optional(),
    default: undefined,
    doc: 'key (32 bytes, base64) encrypting stored provider credentials; unset: secrets.key in the data directory',
  },
} as const

/** `fallback`: a variable read when `env` is unset (the standard AWS names); `secret`: never shown in a message. */
type Field = { env: string; fallback?: string; secret?: boolean; schema: z.ZodType; default: string | undefined; doc: string }
type Fields = typeof fields
type Parsed = { [K in keyof Fields]: z.output<Fields[K]['schema']> }

export type Config = Omit<Parsed, 'publicUrl' | 'defaultPlan'> & {
  publicUrl: string
  defaultPlan: NonNullable<Parsed['defaultPlan']>
  /** Base URL overrides of external providers, keyed by lower-case provider key. */
  providerUrls: Record<string, string>
  version: string
}

export class ConfigError extends Error {}

const PROVIDER_PREFIX = 'GLITCHBOX_PROVIDER_URL_'

/** Parses configuration from environment variables plus `--flag value` overrides (flags win). */
export function loadConfig(env: Record<string, string | undefined>, flags: Record<string, string> = {}, version = '0.0.0'): Config {
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(fields) as [string, Field][]) {
    const flagName = field.env.replace(/^GLITCHBOX_/, '').toLowerCase().replace(/_/g, '-')
    const name = flags[flagName] === undefined && !env[field.env] && field.fallback && env[field.fallback] ? field.fallback : field.env
    const raw = flags[flagName] ?? env[name] ?? field.default
    const value = raw === '' ? field.default : raw
    const result = field.schema.safeParse(value)
    if (!result.success) {
      // A secret is never echoed into the logs that show this message.
      const shown = field.secret ? '(hidden)' : JSON.stringify(value)
      throw new ConfigError(`invalid ${name}=${shown}: ${result.error.issues[0]?.message ?? 'bad value'}`)
    }
    out[key] = result.data
  }
  const providerUrls: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(PROVIDER_PREFIX) || !value) continue
    if (!url.safeParse(value).success) throw new ConfigError(`invalid ${name}=${JSON.stringify(value)}: must be a URL`)
    providerUrls[name.slice(PROVIDER_PREFIX.length).toLowerCase()] = value.replace(/\/+$/, '')
  }
  const parsed = out as Parsed
  // Nodes on one database share no data directory, so no secrets.key either: the key must be given.
  if (parsed.databaseUrl && !parsed.secretKey) {
    throw new ConfigError('GLITCHBOX_DATABASE_URL needs GLITCHBOX_SECRET_KEY (32 random bytes in base64, e.g. `openssl rand -base64 32`), the same on every node')
  }
  if (parsed.s3Bucket && (!parsed.s3AccessKeyId || !parsed.s3SecretAccessKey)) {
    throw new ConfigError('GLITCHBOX_S3_BUCKET needs GLITCHBOX_S3_ACCESS_KEY_ID and GLITCHBOX_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)')
  }
  return {
    ...parsed,
    dataDir: resolve(parsed.dataDir),
    s3Endpoint: parsed.s3Endpoint?.replace(/\/+$/, ''),
    publicUrl: (parsed.publicUrl ?? `http://localhost:${parsed.port}`).replace(/\/+$/, ''),
    // A server without billing gates nothing: its own studio must never hit a hosted plan's quota.
    defaultPlan: parsed.defaultPlan ?? (parsed.stripeSecretKey ? 'free' : 'self_hosted'),
    providerUrls,
    version,
  }
}

/** Whether GLITCHBOX_PUBLIC_URL was left unset: DSNs, file URLs and mailed links then use `http://localhost:PORT`. */
export const publicUrlUnset = (config: Pick<Config, 'publicUrl' | 'port'>): boolean => config.publicUrl === `http://localhost:${config.port}`

/** The documented configuration, for `--help` and the README. */
export const configDocs = Object.values(fields).map((f) => ({ env: f.env, default: f.default, doc: f.doc }))

/** Base URL of an external provider: the override from config or the provider's public default. */
export function providerUrl(config: Pick<Config, 'providerUrls'>, key: string, fallback: string): string {
  return config.providerUrls[key.toLowerCase()] ?? fallback
}
