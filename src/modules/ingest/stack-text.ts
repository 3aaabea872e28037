import type { StackFrame } from './stack'

/**
 * Reads the frames of a stack trace printed as text: the `--- Stack Trace ---` section the
 * Bugnet-style SDKs send with auto-filed errors, in the forms engines and runtimes print (Unity and
 * .NET, Java and Kotlin, JavaScript, Python, Godot, Unreal, gdb/native, Apple crash logs). Lines
 * that are not frames (the exception line, "Caused by:", headers) are skipped. Frames come out
 * innermost first, like every other adapter's (Python prints them the other way round).
 */

/** Frames read at most: grouping needs the top of the stack, and a hostile text can hold millions of lines. */
export const MAX_TEXT_FRAMES = 200
/** Characters of the section read at most, for the same reason. */
const MAX_SECTION_CHARS = 64 * 1024

/** The `--- Stack Trace ---` section of a description (up to the next `--- … ---` heading), or null. */
export function stackTraceSection(description: string): string | null {
  const at = description.search(/---\s*Stack\s*Trace\s*---/i)
  if (at === -1) return null
  const body = description.slice(description.indexOf('\n', at) + 1 || description.length, at + MAX_SECTION_CHARS)
  const end = body.search(/^\s*---\s*[A-Za-z][A-Za-z ]*---/m)
  return end === -1 ? body : body.slice(0, end)
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s))

/** `C:\a\b\File.cs`, `res://x.gd`, `https://host/app.js` as written: the parsers keep paths whole; grouping takes the base name. */
type Parser = (line: string) => StackFrame | null

const parsers: Parser[] = [
  // Python: File "game.py", line 10, in <module>
  (l) => {
    const m = /^File "([^"]+)", line (\d+)(?:, in (.+))?$/.exec(l)
    return m ? { file: m[1], line: num(m[2]), function: m[3] } : null
  },
  // Godot 4: at: _process (res://player.gd:12)   Godot 3: At: res://player.gd:12:_process()
  (l) => {
    let m = /^at:\s*(\S+)\s*\((.+?):(\d+)\)$/i.exec(l)
    if (m) return { function: m[1], file: m[2], line: num(m[3]) }
    m = /^at:\s*(res:\/\/[^:]+):(\d+):([\w.]+)\(\)/i.exec(l)
    return m ? { file: m[1], line: num(m[2]), function: m[3] } : null
  },
  // Unreal: Game!AMyActor::Tick() [D:\Src\MyActor.cpp:42]   0x00007ff6 UnrealEditor-Core.dll!UnknownFunction []
  (l) => {
    const m = /^(?:(0x[0-9a-f]+)\s+)?([\w.-]+)!([^[]*?)\s*\[([^\]]*)\]/i.exec(l)
    if (!m) return null
    const place = /^(.*?)(?::(\d+))?$/.exec(m[4]!.trim())!
    return { address: m[1], module: m[2], function: m[3] || undefined, file: place[1] || undefined, line: num(place[2]) }
  },
  // gdb / native: #0 0x00007f in std::vector<int>::at (this=0x1) at vec.h:12   #1 main   #0 0x00007f libgame.so
  (l) => {
    const m = /^#\d+\s+(?:(0x[0-9a-f]+)\s+(?:in\s+)?)?(.*?)(?:\s+at\s+(\S+?):(\d+))?$/i.exec(l)
    if (!m) return null
    const what = m[2]!.replace(/\s*\(.*$/, '').trim()
    if (!what) return { address: m[1] }
    return /\.(?:so|dll|dylib|exe)(?:\.\d+)*$/i.test(what) ? { address: m[1], module: what } : { address: m[1], function: what, file: m[3], line: num(m[4]) }
  },
  // Apple crash log: 0   libsystem_kernel.dylib   0x00000001a2b3c4d5 __pthread_kill + 8
  (l) => {
    const m = /^\d+\s+(\S+)\s+(0x[0-9a-f]+)\s+(.+?)(?:\s+\+\s+\d+)?$/i.exec(l)
    return m ? { module: m[1], address: m[2], function: m[3] } : null
  },
  // Unity: InventoryPanel.Refresh () (at Assets/Scripts/InventoryPanel.cs:42)
  // .NET:  at Game.UI.InventoryPanel.Refresh() in C:\src\InventoryPanel.cs:line 42
  // Mono:  at PlayerController.Update () [0x00012] in Assets/Scripts/PlayerController.cs:42
  // Java:  at com.studio.Inventory.refresh(Inventory.java:88)
  // V8:    at refresh (https://game.example/app.js:10:5)   at https://game.example/app.js:10:5
  (l) => {
    const body = l.replace(/^at\s+/, '')
    let m = /^(.+?)\s*\(([^()]*)\)\s*(?:\[0x[0-9a-f]+\]\s*)?(?:\(at\s+(.+?):(\d+)\)|in\s+(.+?):(?:line\s+)?(\d+)|<0x[0-9a-f]+\s*\+\s*0x[0-9a-f]+>.*)?$/i.exec(body)
    if (m) {
      const inner = m[2]!
      // Java and V8 put the location inside the parentheses: (File.java:88), (file.js:10:5), (Native Method).
      const loc = /^(.+?):(\d+)(?::(\d+))?$/.exec(inner)
      if (loc && !m[3] && !m[5] && /[./\\]/.test(loc[1]!)) return { function: m[1], file: loc[1], line: num(loc[2]), column: num(loc[3]) }
      return { function: m[1], file: m[3] ?? m[5], line: num(m[4] ?? m[6]) }
    }
    m = /^(\S+?):(\d+):(\d+)$/.exec(body)
    if (m && l.startsWith('at ')) return { file: m[1], line: num(m[2]), column: num(m[3]) }
    return null
  },
  // Firefox / Safari: refresh@https://game.example/app.js:10:5
  (l) => {
    const m = /^([^@\s]*)@(.+?):(\d+)(?::(\d+))?$/.exec(l)
    return m ? { function: m[1] || undefined, file: m[2], line: num(m[3]), column: num(m[4]) } : null
  },
]

/** Lines inside a stack section that are not frames: the exception and its message, chain markers, headers. */
const NOT_A_FRAME =
  /^(?:Traceback \(most recent call last\)|Caused by:|locals:|\d+ [|>](?: |$)|During handling|The above exception|---|\*\*\*|Exception in thread|Thread \d+|Main thread|Stack trace:|Backtrace:|Call stack:)|^[\w.$`<>[\]]*(?:Exception|Error|Fault)\b.*:/i
/** `SCRIPT ERROR: …`, `FATAL EXCEPTION: main`: upper-case headings (Godot's `at:` frames are lower-case). */
const HEADING = /^[A-Z_ ]+:\s/

/** The marker Glitchbox writes after the game's own frames when it prints a structured stack (Sentry events). */
const IN_APP_MARK = /\s+\[in app\]$/

/** One line as a frame, or null when it is not one; `python` reads only Python's frame lines (its source lines look like calls). */
export function parseFrameLine(raw: string, python = false): StackFrame | null {
  let line = raw.trim()
  if (!line || line.length > 2000 || NOT_A_FRAME.test(line) || HEADING.test(line)) return null
  const marked = IN_APP_MARK.test(line)
  if (marked) line = line.replace(IN_APP_MARK, '')
  for (const parse of python ? parsers.slice(0, 1) : parsers) {
    const f = parse(line)
    if (f) return marked ? { ...f, inApp: true } : f
  }
  return null
}

/** The frames of a stack trace text, innermost first, at most `MAX_TEXT_FRAMES`. */
export function framesOfText(text: string): StackFrame[] {
  const frames: StackFrame[] = []
  const python = text.includes('Traceback (most recent call last)') || /^\s*File "[^"]+", line \d+/m.test(text)
  for (const line of text.slice(0, MAX_SECTION_CHARS).split('\n')) {
    const f = parseFrameLine(line, python)
    if (f) frames.push(f)
    if (!python && frames.length >= MAX_TEXT_FRAMES) break
  }
  // Python prints the innermost frame last, and the last traceback is the exception that escaped.
  return python ? frames.reverse().slice(0, MAX_TEXT_FRAMES) : frames
}
