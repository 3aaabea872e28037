/**
 * Reads the exception or error class from a report's title and stack trace, for the error-types
 * listing and the `error_type` filter. Empty when none is recognisable. Each text is tried against
 * the forms below in order, most specific first; within one form the first occurrence wins.
 */
const CPP_EXCEPTIONS =
  'exception|bad_alloc|bad_array_new_length|bad_cast|bad_typeid|bad_function_call|bad_weak_ptr|bad_optional_access|bad_variant_access|bad_any_cast|' +
  'logic_error|invalid_argument|domain_error|length_error|out_of_range|future_error|runtime_error|range_error|overflow_error|underflow_error|' +
  'system_error|regex_error|ios_base::failure|filesystem::filesystem_error|format_error'

/** The hint of both class forms (`…Exception`, `…Error`, `…Fault`), which firstClass asks once per text. */
const CLASS_SUFFIX = 'classSuffix'
const hasClassSuffix = (text: string) => text.includes('Exception') || text.includes('Error') || text.includes('Fault')

/**
 * `hint`: a quick test that passes on every text the form could match (a literal it must contain),
 * so that plain player prose skips the regex scans: ~23 µs of a 2 KB description otherwise.
 */
const forms: { hint: ((text: string) => boolean) | typeof CLASS_SUFFIX; re: RegExp; name?: (m: RegExpExecArray) => string }[] = [
  // Godot: "[Script Error] …", "SCRIPT ERROR: …", "USER SCRIPT ERROR: …", "Parse Error: …" (Godot 3 and 4 output).
  {
    hint: (t) => /error/i.test(t),
    re: /(?:^|\[|\b(?:USER\s+))\s*(SCRIPT|SHADER|PARSE)\s+ERROR\s*(?:\]|:)/gim,
    name: (m) => `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1).toLowerCase()} Error`,
  },
  // C++: "terminate called after throwing an instance of 'std::out_of_range'", "std::bad_alloc".
  { hint: (t) => t.includes('std::'), re: new RegExp(`\\b(std::(?:__\\w+::)?(?:${CPP_EXCEPTIONS}))\\b`, 'g'), name: (m) => m[1]!.replace(/::__\w+::/, '::') },
  // Native crashes: Windows (Unreal) exception codes and Apple Mach exceptions (which name the signal
  // after them, so they come first), then POSIX signals.
  {
    hint: (t) => t.includes('EXC'),
    re: /\b(EXCEPTION_(?:ACCESS_VIOLATION|STACK_OVERFLOW|ILLEGAL_INSTRUCTION|INT_DIVIDE_BY_ZERO|IN_PAGE_ERROR|BREAKPOINT)|EXC_(?:BAD_ACCESS|BAD_INSTRUCTION|CRASH|ARITHMETIC|BREAKPOINT|RESOURCE))\b/g,
  },
  { hint: (t) => t.includes('SIG'), re: /\b(SIG(?:SEGV|ABRT|BUS|FPE|ILL|TRAP|KILL|PIPE|SYS))\b/g },
  // Qualified classes as written: java.lang.IllegalStateException, kotlin.UninitializedPropertyAccessException,
  // System.NullReferenceException, UnityEngine.MissingReferenceException, requests.exceptions.ConnectionError.
  { hint: CLASS_SUFFIX, re: /\b((?:[A-Za-z_]\w*\.)+[A-Z]\w*(?:Exception|Error|Fault))\b/g },
  // Bare classes: NullReferenceException, TypeError, KeyError, NSRangeException.
  { hint: CLASS_SUFFIX, re: /\b([A-Z]\w*(?:Exception|Error|Fault))\b/g },
]

// Words that look like classes but are too generic to group by (JS `Error:`, the SDK's "[Error]" kind).
const ignored = new Set(['Error', 'Exception', 'Fault'])

function firstClass(text: string): string {
  // The two class forms share one hint: asked once per text, when the first of them is reached.
  let suffix: boolean | undefined
  for (const { hint, re, name } of forms) {
    if (!(hint === CLASS_SUFFIX ? (suffix ??= hasClassSuffix(text)) : hint(text))) continue
    re.lastIndex = 0
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const found = name ? name(m) : m[1]!
      if (!ignored.has(found)) return found.slice(0, 200)
    }
  }
  return ''
}

const TRACEBACK = 'Traceback (most recent call last)'

/**
 * Python prints the exception after the frames: the first unindented line after the last
 * "Traceback (most recent call last):" (the last one is the exception that escaped, when chained).
 */
function pythonException(text: string): string {
  // `includes` first: it skips a text without a traceback ~8x faster than a `lastIndexOf` search.
  if (!text.includes(TRACEBACK)) return ''
  const at = text.lastIndexOf(TRACEBACK)
  const line = text
    .slice(at)
    .split(/\r?\n/)
    .slice(1)
    .find((l) => l.trim() !== '' && !/^\s/.test(l))
  const m = line ? /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*)(?::|$)/.exec(line.trim()) : null
  return m ? m[1]! : ''
}

/** The error class found in the title first, then in the description's stack trace; '' when none. */
export function extractErrorType(title: string, description = ''): string {
  const stack = stackSection(description)
  const found = firstClass(stripSdkPrefix(title)) || pythonException(stack) || firstClass(stack)
  if (found) return found
  // An SDK freeze report names no class: the kind itself is what groups them.
  return /^\s*\[Freeze\]/i.test(title) ? 'Freeze' : ''
}

/** "[Error] NullReferenceException: …" → "NullReferenceException: …" (SDK auto-filed titles). */
function stripSdkPrefix(title: string): string {
  return title.replace(/^\s*\[(?:Error|Freeze|Exception|Crash|Warning|Assert)\]\s*/i, '')
}

/** The `--- Stack Trace ---` section when present (auto-filed errors), else the whole text. */
function stackSection(description: string): string {
  const m = description.includes('---') ? /---\s*Stack\s*Trace\s*---([\s\S]*?)(?:---\s*Recent\s*Logs\s*---|$)/i.exec(description) : null
  return m ? m[1]! : description
}
