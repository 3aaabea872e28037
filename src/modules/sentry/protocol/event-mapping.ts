import { handledOf } from '../../ingest/crash'
import { isCrash } from '../../reports/report-crash'
import type { ExceptionInfo } from '../../ingest/stack'
import { describeEvent, exceptionLine } from './event-description'
import { eventFrames, exceptionsOf } from './event-frames'
import { trimToJsonBytes } from './metadata-trim'
import { browserOf, type Named, systemOf, userAgentOf } from './user-agent'
import { eventIdOf, isObject, num, obj, releaseVersion, scalarText, sdkOf, text, timestampOf } from './values'

/** Most bytes of JSON kept as a report's metadata (the SDK submit's limit). */
export const MAX_METADATA_BYTES = 16 * 1024

/** A Sentry event as the fields of a report; every field may be empty, none is ever missing. */
export interface SentryEventMapping {
  /** 32 lowercase hex digits, or null when the event has no usable id. */
  eventId: string | null
  /** `Type: value` of the primary exception, else the message; at most 300 characters, one line. */
  title: string
  /** Message, `--- Stack Trace ---` and `--- Recent Logs ---` sections; never empty. */
  description: string
  /** The primary exception's type, '' without one. */
  errorType: string
  /** The exception chain, the primary exception (Sentry's last) first, then its causes; frames innermost first. */
  exceptions: ExceptionInfo[]
  /** The event's message (`logentry.formatted`, `message`, …), null when it has none. */
  message: string | null
  /** `level` as sent, lowercased (`fatal`, `error`, `warning`, …), null when absent. */
  level: string | null
  /** `crash` for a crash (`level: fatal` or an unhandled exception, reports/report-crash.ts), else null (the caller's default applies). */
  category: 'crash' | null
  gameVersion: string | null
  environment: string | null
  /**
   * The player's operating system: `contexts.os.name`, else a `platform` or `os` tag the game sets,
   * else the OS in a browser's user agent. Never the SDK's runtime or language.
   */
  platform: string | null
  /** The runtime (`contexts.runtime`: `node` `v20.20.2`), else the event's `platform` (`python`) when no browser sent it. */
  runtime: Named | null
  /** A web game's browser: `contexts.browser`, else read from `request.headers['User-Agent']`. */
  browser: Named | null
  osInfo: string | null
  deviceInfo: string | null
  playerId: string | null
  reporterName: string | null
  reporterEmail: string | null
  /** tags, environment, level, sdk, dist, request, extra and contexts, cut to 16 KB of JSON; null when none. */
  metadata: Record<string, unknown> | null
  /** The client's `fingerprint` as sent (`{{ default }}` unexpanded), null when absent. */
  fingerprint: string[] | null
  timestamp: Date | null
  sdk: { name: string; version: string } | null
  /** True when the SDK caught it by itself (an unhandled exception or a fatal event), false for captureException/captureMessage. */
  autoCaptured: boolean
}

const oneLine = (s: string, max: number) => s.replace(/\s+/g, ' ').trim().slice(0, max)
const clean = (v: unknown, max: number) => {
  const s = scalarText(v, max * 4)
  return s === undefined ? null : oneLine(s, max) || null
}

const MESSAGE_MAX = 10_000

/**
 * `%s`-style, `{}` and `{name}` placeholders filled from `params`, as Sentry formats a `logentry`
 * without `formatted`; each value is cut to 1,000 characters and the result to `MESSAGE_MAX`.
 */
function formatLogentry(message: string, params: unknown): string {
  if (!Array.isArray(params) && !isObject(params)) return message
  const list = Array.isArray(params) ? params : []
  const named = isObject(params) ? params : {}
  let i = 0
  let added = 0
  const show = (v: unknown) => {
    if (v === undefined || added > MESSAGE_MAX) return undefined
    const s = (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 1000)
    added += s.length
    return s
  }
  const filled = message.replace(/%[sdifr]|\{(\w*)\}/g, (m, key: string | undefined) => {
    if (!key) return show(list[i++]) ?? m
    return show(/^\d+$/.test(key) ? list[Number(key)] : Object.hasOwn(named, key) ? named[key] : undefined) ?? m
  })
  return filled.slice(0, MESSAGE_MAX)
}

/** The event's message: `logentry.formatted`, `message` (text or object), else `logentry.message` with its params. */
function messageOf(event: Record<string, unknown>): string | null {
  const entries = [obj(event.logentry), obj(event.message)]
  const plain = text(event.message, MESSAGE_MAX)
  for (const found of [...entries.map((e) => text(e?.formatted, MESSAGE_MAX)), plain]) if (found?.trim()) return found.trim()
  for (const entry of entries) {
    const template = text(entry?.message, MESSAGE_MAX)
    if (template?.trim()) return formatLogentry(template, entry?.params).trim()
  }
  return null
}

/** A context by its key, else the first context whose `type` is that key (`contexts.rust` has type runtime). */
function contextOf(contexts: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  if (!contexts) return undefined
  return obj(contexts[key]) ?? (Object.values(contexts).find((c) => isObject(c) && c.type === key) as Record<string, unknown> | undefined)
}

const joined = (parts: (string | null | undefined)[], separator: string, max: number) => {
  const s = oneLine(parts.filter(Boolean).join(separator), max)
  return s || null
}

/** `Windows 10.0.19045` from `contexts.os`, else its `raw_description`, else the user agent's system. */
function osInfoOf(os: Record<string, unknown> | undefined, agentSystem: Named | null): string | null {
  return (
    joined([clean(os?.name, 100), clean(os?.version, 100), clean(os?.build, 100)], ' ', 500) ??
    clean(os?.raw_description, 500) ??
    joined([agentSystem?.name, agentSystem?.version], ' ', 500)
  )
}

/** A context's `name` and `version` (`contexts.runtime`, `contexts.browser`), null without a name. */
function namedOf(context: Record<string, unknown> | undefined): Named | null {
  const name = clean(context?.name, 60)
  return name ? { name, version: clean(context?.version, 39) ?? '' } : null
}

const gb = (bytes: unknown) => {
  const n = num(bytes)
  return n && n > 0 ? `${Math.round(n / 1024 ** 3)} GB RAM` : null
}

/** Model, CPU, architecture, memory and GPU from `contexts.device` and `contexts.gpu`. */
function deviceInfoOf(device: Record<string, unknown> | undefined, gpu: Record<string, unknown> | undefined): string | null {
  const model = clean(device?.model, 100) ?? clean(device?.name, 100) ?? clean(device?.family, 100)
  const gpuName = clean(gpu?.name, 100)
  return joined([model, clean(device?.cpu_description, 100), clean(device?.arch, 20), gb(device?.memory_size), gpuName && `GPU: ${gpuName}`], ', ', 500)
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const METADATA_KEYS = ['tags', 'environment', 'level', 'sdk', 'dist', 'request', 'extra', 'contexts'] as const

function metadataOf(event: Record<string, unknown>): Record<string, unknown> | null {
  const picked: Record<string, unknown> = {}
  for (const key of METADATA_KEYS) if (event[key] !== undefined && event[key] !== null) picked[key] = event[key]
  return Object.keys(picked).length ? trimToJsonBytes(picked, MAX_METADATA_BYTES) : null
}

function fingerprintOf(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null
  const parts = v
    .slice(0, 50)
    .map((p) => scalarText(p, 200))
    .filter((p): p is string => p !== undefined)
  return parts.length ? parts : null
}



/**
 * Maps a Sentry event (an `event` item or a `/store/` body) to report fields, following CONTRACT.md
 * § "Sentry SDKs", "Mapping". Reads any parsed JSON value without throwing: values of the wrong type
 * are skipped, long lists are cut (frames, exceptions, breadcrumbs), long texts clipped.
 */
export function mapSentryEvent(input: unknown): SentryEventMapping {
  const event = obj(input) ?? {}
  const exceptions = exceptionsOf(event)
  const message = messageOf(event)
  const primary = exceptions[0]
  const title = oneLine((primary && exceptionLine(primary)) || message || '', 300) || '<unlabeled event>'
  const level = text(event.level, 20)?.toLowerCase() ?? null
  const contexts = obj(event.contexts)
  const os = contextOf(contexts, 'os')
  const tags = obj(event.tags)
  const agent = userAgentOf(event.request)
  const agentSystem = agent ? systemOf(agent) : null
  const browser = namedOf(contextOf(contexts, 'browser')) ?? (agent ? browserOf(agent) : null)
  const sdkPlatform = clean(event.platform, 60)
  const user = obj(event.user)
  const email = clean(user?.email, 320)
  return {
    eventId: eventIdOf(event.event_id),
    title,
    description: describeEvent({ message, exceptions, frames: primary ? [] : eventFrames(event), breadcrumbs: event.breadcrumbs }) || title,
    errorType: primary?.type ?? '',
    exceptions,
    message,
    level,
    category: isCrash({ level, handled: handledOf(exceptions) }) ? 'crash' : null,
    gameVersion: releaseVersion(event.release),
    environment: clean(event.environment, 100),
    platform: clean(os?.name, 100) ?? clean(tags?.platform, 100) ?? clean(tags?.os, 100) ?? agentSystem?.name ?? null,
    runtime: namedOf(contextOf(contexts, 'runtime')) ?? (sdkPlatform && !browser ? { name: sdkPlatform, version: '' } : null),
    browser,
    osInfo: osInfoOf(os, agentSystem),
    deviceInfo: deviceInfoOf(contextOf(contexts, 'device'), contextOf(contexts, 'gpu')),
    playerId: clean(user?.id, 200),
    reporterName: clean(user?.username, 200) ?? clean(user?.name, 200),
    reporterEmail: email && EMAIL.test(email) ? email : null,
    metadata: metadataOf(event),
    fingerprint: fingerprintOf(event.fingerprint),
    timestamp: timestampOf(event.timestamp),
    sdk: sdkOf(event.sdk),
    autoCaptured: level === 'fatal' || handledOf(exceptions) === false,
  }
}
