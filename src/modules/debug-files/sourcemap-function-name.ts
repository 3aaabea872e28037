const IDENT = '[A-Za-z_$][\\w$]*'
const DECLARATIONS = [
  // function name(…), function* name(…)
  new RegExp(`\\bfunction\\s*\\*?\\s*(${IDENT})\\s*\\(`),
  // name = function / name: async (…) => / name = x =>
  new RegExp(`(${IDENT})\\s*[:=]\\s*(?:async\\s+)?(?:function\\b|\\([^()]*\\)\\s*(?::[^=]*)?=>|${IDENT}\\s*=>)`),
  // class methods: name(…) {, async name(…): T {
  new RegExp(`^\\s*(?:(?:public|private|protected|static|async|override|get|set)\\s+)*\\*?(${IDENT})\\s*\\([^()]*\\)\\s*(?::[^{]*)?\\{`),
]
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'function', 'constructor'])
/** How far up the original source the search looks. */
const MAX_LINES_UP = 400

const count = (s: string, ch: string) => s.split(ch).length - 1

/** The name a line declares as a function, if any. */
function declaredName(line: string): string | undefined {
  for (const re of DECLARATIONS) {
    const name = re.exec(line)?.[1]
    if (name && !NOT_NAMES.has(name)) return name
  }
  return undefined
}

/**
 * The original function enclosing a position (line 1-based, column 0-based), read from the source
 * text: the nearest declaration above whose `{` is still open at the position. A fallback for when
 * the source map names no token at the caller; braces inside strings or comments can mislead it.
 */
export function enclosingFunctionName(lines: readonly string[], line: number, column: number): string | undefined {
  // Scanning upwards, a line that opens one more unmatched `{` than any line below it opens a block
  // that encloses the position; the first such block that is a function names it.
  let open = 0
  let deepest = 0
  for (let i = line - 1, seen = 0; i >= 0 && seen < MAX_LINES_UP; i--, seen++) {
    const text = i === line - 1 ? (lines[i] ?? '').slice(0, column) : (lines[i] ?? '')
    open += count(text, '{') - count(text, '}')
    if (open > deepest) {
      deepest = open
      const name = declaredName(lines[i] ?? '')
      if (name) return name
    }
  }
  return undefined
}
