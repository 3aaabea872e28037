/**
 * What Unreal's CrashReportClient sends and expects. Its data-router uploader
 * (`FCrashUploadToDataRouter::CompressAndSendData` in CrashUpload.cpp) POSTs the zlib-compressed
 * container as `application/octet-stream` to `DataRouterUrl` plus
 * `?AppID=CrashReporter&AppVersion=<engine version>&AppEnvironment=Release|Dev&UploadType=crashreports&UserID=<LoginId>|<EpicAccountId>|<OperatingSystemId>`.
 * Its completion handler looks only at whether an HTTP answer arrived: any status counts as
 * delivered and the body is never read, while a failed connection keeps the report for the next
 * launch. So the answer is for people and tools; Glitchbox gives Sentry's: relay's Unreal endpoint
 * (relay-server/src/endpoints/unreal.rs) answers 200 with the event id as a hyphenated UUID in plain
 * text, and never 429, because these clients retry (a rate-limited crash is answered 200 and dropped).
 */
export const UNREAL_ANSWER_CONTENT_TYPE = 'text/plain; charset=utf-8'

/** The success answer for a filed crash: 200, the event id as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
export function unrealAnswer(eventId: string): { status: 200; contentType: string; body: string } {
  const hex = eventId.replace(/-/g, '').toLowerCase()
  const body = /^[0-9a-f]{32}$/.test(hex) ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : eventId
  return { status: 200, contentType: UNREAL_ANSWER_CONTENT_TYPE, body }
}

/** The player ids and engine version CrashReportClient puts in the upload's query string. */
export interface UnrealUploadQuery {
  loginId?: string
  epicAccountId?: string
  /** The operating system's id for the machine (`FPlatformMisc::GetOperatingSystemId`). */
  machineId?: string
  /** The engine version (`5.1.1-0+++UE5+Release-5.1`). */
  appVersion?: string
}

const MAX_QUERY_VALUE = 256

/** Reads `UserID` (`LoginId|EpicAccountId|MachineId`, parts may be empty) and `AppVersion`; overlong values are ignored. */
export function readUnrealQuery(query: URLSearchParams): UnrealUploadQuery {
  const value = (text: string | null | undefined) => (text && text.length <= MAX_QUERY_VALUE ? text : undefined)
  const [loginId, epicAccountId, machineId] = (value(query.get('UserID')) ?? '').split('|')
  return { loginId: value(loginId), epicAccountId: value(epicAccountId), machineId: value(machineId), appVersion: value(query.get('AppVersion')) }
}
