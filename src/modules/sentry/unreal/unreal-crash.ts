import { type UnrealContainer, type UnrealFile, unpackContainer } from './unreal-container'
import { readCrashContext, type UnrealCrashContext } from './unreal-context'
import { inflateCapped } from './unreal-inflate'

/** Decoded size past which an upload is refused (the contract's 100 MB decompressed). */
export const MAX_DECODED_BYTES = 100 * 1024 * 1024

/** An unpacked Unreal crash upload: every file of the container, and the ones Glitchbox files the crash with. */
export interface UnrealCrash extends UnrealContainer {
  /** `CrashContext.runtime-xml` read; absent when the container has none. */
  context?: UnrealCrashContext
  /** The Windows/Linux minidump (`UE4Minidump.dmp`, `UEMinidump.dmp`: found by its `MDMP` signature). */
  minidump?: UnrealFile
  /** The Mac reporter's Apple crash report (text), in place of a minidump. */
  appleCrashReport?: UnrealFile
  /** The game's log files (`<Project>.log`). */
  logs: UnrealFile[]
}

/**
 * Everything in the body CrashReportClient uploads: inflates it (at most `maxDecodedBytes`),
 * unpacks the container and reads its crash context. Files are views into the one decoded buffer.
 * Any problem with the body is an UnrealCrashError (status 413 past the cap, else 400).
 */
export async function parseUnrealCrash(body: Uint8Array, { maxDecodedBytes = MAX_DECODED_BYTES } = {}): Promise<UnrealCrash> {
  const container = unpackContainer(await inflateCapped(body, maxDecodedBytes))
  const first = (kind: UnrealFile['kind']) => container.files.find((file) => file.kind === kind)
  const contextFile = first('context')
  return {
    ...container,
    context: contextFile ? readCrashContext(contextFile.bytes) : undefined,
    minidump: first('minidump'),
    appleCrashReport: first('apple_crash_report'),
    logs: container.files.filter((file) => file.kind === 'log'),
  }
}
