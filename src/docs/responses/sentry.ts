import * as z from 'zod'
import type { OperationDocs } from './common'

/** What Sentry's SDKs get back for a filed event: its id, 32 hex digits. */
export const SentryEventAnswer = z.object({ id: z.string().describe('The event id (32 hex digits)') })
/** Sentry's error answer, `{"detail": …}`, on its routes only. */
export const SentryError = z.object({ detail: z.string().describe('What was wrong, for people') })

const bytes = z.string().meta({ format: 'binary' })
const envelopeBody = { 'application/x-sentry-envelope': bytes, 'text/plain': bytes, 'application/octet-stream': bytes }

export const sentryDocs: OperationDocs = {
  'POST /api/{dsnId}/envelope': {
    data: SentryEventAnswer,
    content: 'plain-json',
    errorFormat: 'sentry',
    description: 'The envelope was read: its event filed (a new report or an occurrence; an event id the project already took in changes nothing), feedback (at most 3 items) and sessions recorded, other item types read past',
    requestBody: envelopeBody,
  },
  'POST /api/{dsnId}/store': {
    data: SentryEventAnswer,
    content: 'plain-json',
    errorFormat: 'sentry',
    description: 'The event was filed',
    requestBody: { 'application/json': z.record(z.string(), z.unknown()).describe('A Sentry event'), 'text/plain': bytes, 'application/octet-stream': bytes },
  },
  'POST /api/{dsnId}/minidump': {
    data: z.string().describe('The event id as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'),
    content: 'text',
    errorFormat: 'sentry',
    description: 'The crash was filed',
    requestBody: { 'multipart/form-data': z.object({ upload_file_minidump: bytes.describe('The minidump'), sentry: z.string().optional().describe('A Sentry event as JSON (release, user, tags, contexts)') }).loose() },
  },
  'POST /api/{dsnId}/unreal/{apiKey}': {
    data: z.string().describe('The event id as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'),
    content: 'text',
    errorFormat: 'sentry',
    description: 'The crash was filed (CrashReportClient reads no answer: any status counts as delivered)',
    requestBody: { 'application/octet-stream': bytes },
  },
}
