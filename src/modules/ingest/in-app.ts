import type { StackFrame } from './stack'

/**
 * Whether a frame is the game's own code, for frames whose client did not say (text stack traces,
 * Sentry frames without `in_app`): engine, runtime and system code is recognised by its namespace,
 * module or path; everything else counts as the game's. Grouping keys on the top in-app frame,
 * because the engine frame above a game's bug (`UnityEngine.Debug.LogException`) is the same for
 * every bug.
 */

/** Namespaces of engines and runtimes, as the first part of a qualified name (`System.`, `std::`). */
const SYSTEM_NAMESPACE = /^(?:UnityEngine|UnityEditor|Unity|System|Microsoft|Mono|mscorlib|Godot|GodotEngine|java|javax|jdk|sun|android|androidx|dalvik|kotlin|kotlinx|com\.android|com\.google\.android|scala|std|node)(?:\.|::|:)/
/** Runtime entry points and helpers that sit on every stack. */
const SYSTEM_FUNCTION =
  /^(?:__cxa|__gnu|_pthread|__pthread|pthread_|objc_|CFRunLoop|UIApplication|NSThread|dispatch_|_dispatch|FEngineLoop|FRunnableThread|FTaskGraph|GuardedMain|WinMain|__scrt|RtlUserThreadStart|BaseThreadInitThunk|invoke_main|processTicksAndRejections|Module\._compile|Generator\.next|Promise\.then|new Promise|asyncGeneratorStep|\(wrapper)/

const SYSTEM_MODULE =
  /^(?:ntdll|kernel32|kernelbase|user32|ucrtbase|msvcr|msvcp|vcruntime|d3d|dxgi|libc\b|libc\.so|libc\+\+|libstdc\+\+|libpthread|libsystem|libdyld|libobjc|CoreFoundation|UIKit|Foundation|GraphicsServices|libunity|UnityPlayer|mono|GameAssembly\.dll!il2cpp|UE4Editor-Core|UE4Editor-Engine|UE4Editor-Launch|UE4Editor-ApplicationCore|UnrealEditor-Core|UnrealEditor-Engine|UnrealEditor-Launch|UnrealEditor-ApplicationCore|UE4Game-Core|UnrealGame-Core|libgodot|godot\.)/i

const SYSTEM_PATH = /(?:^|[\\/])(?:node_modules|site-packages|dist-packages|lib[\\/]python\d|Library[\\/]PackageCache|Packages[\\/]com\.unity|Runtime[\\/]Core|Engine[\\/]Source|Engine[\\/]Plugins)(?:[\\/]|$)|^(?:node:|internal[\\/]|<anonymous>|native|\[native code\])/i

/** The client's `inApp` when given; otherwise false for recognised engine, runtime and system code, true for the rest. */
export function isInApp(f: StackFrame): boolean {
  if (f.inApp !== undefined) return f.inApp
  if (f.function && (SYSTEM_NAMESPACE.test(f.function) || SYSTEM_FUNCTION.test(f.function))) return false
  if (f.module && SYSTEM_MODULE.test(f.module)) return false
  if (f.file && SYSTEM_PATH.test(f.file)) return false
  // A frame with nothing but an address tells nothing about whose code it is.
  return Boolean(f.function || f.file || f.module)
}
