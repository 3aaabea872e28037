/**
 * Reads the exception or error class from a report's title and stack trace, for grouping and the
 * error-types listing. Empty when none is recognisable. Order matters: the most specific forms first.
 */
const patterns: RegExp[] = [
  // Godot / engine prefixes: "[Script Error]", "[Shader Error]"
  /\[((?:Script|Shader|Parse|Engine|Native)\s+Error)\]/,
  // Signals of native crashes.
  /\b(SIG(?:SEGV|ABRT|BUS|FPE|ILL|TRAP|KILL|PIPE))\b/,
  // C++: std::out_of_range, std::bad_alloc
  /\b(std::[a-z_]+)\b/,
  // Java/Kotlin/C# fully qualified: java.lang.IllegalStateException, System.NullReferenceException
  /\b((?:[a-z][\w]*\.)+[A-Z]\w*(?:Exception|Error))\b/,
  /\b((?:System|UnityEngine|Godot|Microsoft)(?:\.[A-Z]\w*)+(?:Exception|Error))\b/,
  // Bare class names: NullReferenceException, TypeError, KeyError
  /\b([A-Z]\w*(?:Exception|Error))\b(?=\s*[:(]|\s+at\s|\s*$|\s+in\s)/m,
  /\b([A-Z]\w*(?:Exception|Error))\b/,
]

// Words that look like classes but only name the report kind the SDK prefixes titles with.
const ignored = new Set(['Error', 'Exception'])

/** The error class found in the title first, then in the description (stack trace); '' when none. */
export function extractErrorType(title: string, description = ''): string {
  for (const text of [stripSdkPrefix(title), stackSection(description)]) {
    for (const re of patterns) {
      const m = re.exec(text)
      if (m && !ignored.has(m[1]!)) return m[1]!.slice(0, 200)
    }
  }
  return ''
}

/** "[Error] NullReferenceException: …" → "NullReferenceException: …" (SDK auto-filed titles). */
function stripSdkPrefix(title: string): string {
  return title.replace(/^\s*\[(?:Error|Freeze|Exception|Crash|Warning|Assert)\]\s*/i, '')
}

/** The `--- Stack Trace ---` section when present (auto-filed errors), else the whole text. */
function stackSection(description: string): string {
  const m = /---\s*Stack Trace\s*---([\s\S]*?)(?:---\s*Recent Logs\s*---|$)/i.exec(description)
  return m ? m[1]! : description
}
