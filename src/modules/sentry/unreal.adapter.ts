import type { StoredFile } from '../../files/storage'
import type { Project } from '../projects/projects.repository'
import type { Submission } from '../ingest/submission'
import { withMinidump } from './minidump.adapter'
import type { SymbolicatedStack } from './minidump-symbols'
import type { ParsedMinidump } from './minidump/minidump.types'
import type { UnrealCrash } from './unreal/unreal-crash'
import type { UnrealUploadQuery } from './unreal/unreal-http'

const MAX_DESCRIPTION = 50_000

/** `Windows 10 (10.0.19045)`, from the platform's full name and OS version. */
const osOf = (c: NonNullable<UnrealCrash['context']>) => [c.platformFullName ?? c.platformNameIni, c.osVersion && `(${c.osVersion})`].filter(Boolean).join(' ').slice(0, 500)

/** `AMD Ryzen 7 5800X, 16 cores, NVIDIA GeForce RTX 3070, 32 GB RAM`. */
const deviceOf = (c: NonNullable<UnrealCrash['context']>) =>
  [c.cpuBrand, c.cpuCores && `${c.cpuCores} cores`, c.gpuBrand, c.ramBytes && `${Math.round(c.ramBytes / 1024 ** 3)} GB RAM`].filter(Boolean).join(', ').slice(0, 500)

/** The container's minidump, read, and its crashed thread symbolicated with the project's uploads (null when none did). */
export interface UnrealNative {
  dump: ParsedMinidump
  symbols: SymbolicatedStack | null
}

/**
 * An Unreal CrashReportClient upload as a submission: titled by the error message Unreal printed
 * (`Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x…`, `Assertion failed: …`),
 * grouped by its exception (or crash kind) and the call stack Unreal printed, with the build as game
 * version, the player's description, the machine and account ids, and the minidump and logs
 * attached. An ensure or a stall (the game ran on) is an error, not a crash. With the container's
 * minidump read (`native`), the dump's facts join the metadata; when the project's symbols name its
 * frames, those title, describe and group the crash exactly as on the minidump route, else Unreal's
 * printed call stack stays.
 */
export function submissionOfUnreal(project: Project, crash: UnrealCrash, query: UnrealUploadQuery, files: StoredFile[], native: UnrealNative | null = null): Submission {
  const c = crash.context
  const message = c?.errorMessage?.trim() || `Unreal ${c?.crashType ?? 'crash'}`
  const title = (message.split('\n')[0] ?? message).slice(0, 300)
  const type = c?.exceptionType ?? (c?.isAssert ? 'Assert' : c?.isEnsure ? 'Ensure' : c?.crashType) ?? 'Crash'
  const stack = c?.callStack?.trim()
  const text = [message, c?.userDescription?.trim() && `Player's description: ${c.userDescription.trim()}`].filter(Boolean).join('\n\n')
  const description = [text, stack && `--- Stack Trace ---\n${stack}`].filter(Boolean).join('\n\n').slice(0, MAX_DESCRIPTION)
  const submission: Submission = {
    project,
    kind: 'auto',
    title,
    description,
    category: c?.isCrash === false ? undefined : 'crash',
    gameVersion: c?.buildVersion ?? query.appVersion ?? null,
    platform: c?.platformNameIni ?? c?.platformName ?? null,
    osInfo: c ? osOf(c) : null,
    deviceInfo: c ? deviceOf(c) : null,
    playerId: c?.epicAccountId || c?.loginId || query.epicAccountId || query.loginId || null,
    reporterName: c?.userName || null,
    metadata: {
      unreal: {
        crash_guid: c?.crashGuid ?? null,
        crash_type: c?.crashType ?? null,
        game_name: c?.gameName ?? null,
        engine_version: c?.engineVersion ?? query.appVersion ?? null,
        build_configuration: c?.buildConfiguration ?? null,
        machine_id: c?.machineId ?? query.machineId ?? null,
        login_id: c?.loginId ?? query.loginId ?? null,
        epic_account_id: c?.epicAccountId ?? query.epicAccountId ?? null,
        crashed_at: c?.crashedAt ?? null,
        seconds_since_start: c?.secondsSinceStart ?? null,
      },
    },
    exceptions: c ? [{ type, value: message.slice(0, 1000), frames: c.frames }] : undefined,
    client: c?.crashReportClientVersion ? `unreal-crash-reporter ${c.crashReportClientVersion}` : 'unreal-crash-reporter',
    attachments: files,
  }
  if (!native) return submission
  // Without exceptions, the dump's symbolicated frames take over (the minidump route's own rule); the text keeps Unreal's message and the player's words.
  const symbolicated = Boolean(native.symbols?.frames.length)
  const merged = withMinidump(symbolicated ? { ...submission, description: text.slice(0, MAX_DESCRIPTION), exceptions: undefined } : submission, native.dump, native.symbols)
  return { ...merged, category: submission.category }
}
