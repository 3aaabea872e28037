import * as z from 'zod'
import { resolve } from 'node:path'
import { parseTrustProxy } from '../http/client-ip'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v))

const url = z.string().url()

const rateLimit = z.coerce.number().int('must be a whole number').min(0).max(1_000_000)

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
} as const

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
  for (const [key, field] of Object.entries(fields)) {
    const flagName = field.env.replace(/^GLITCHBOX_/, '').toLowerCase().replace(/_/g, '-')
    const raw = flags[flagName] ?? env[field.env] ?? field.default
    const value = raw === '' ? field.default : raw
    const result = (field.schema as z.ZodType).safeParse(value)
    if (!result.success) {
      throw new ConfigError(`invalid ${field.env}=${JSON.stringify(value)}: ${result.error.issues[0]?.message ?? 'bad value'}`)
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
  return {
    ...parsed,
    dataDir: resolve(parsed.dataDir),
    publicUrl: (parsed.publicUrl ?? `http://localhost:${parsed.port}`).replace(/\/+$/, ''),
    // A server without billing gates nothing: its own studio must never hit a hosted plan's quota.
    defaultPlan: parsed.defaultPlan ?? (parsed.stripeSecretKey ? 'free' : 'self_hosted'),
    providerUrls,
    version,
  }
}

/** The documented configuration, for `--help` and the README. */
export const configDocs = Object.values(fields).map((f) => ({ env: f.env, default: f.default, doc: f.doc }))

/** Base URL of an external provider: the override from config or the provider's public default. */
export function providerUrl(config: Pick<Config, 'providerUrls'>, key: string, fallback: string): string {
  return config.providerUrls[key.toLowerCase()] ?? fallback
}
