import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { foldTrace, traceLines } from './stack-trace'

const shape = (text: string) => foldTrace(traceLines(text)).map((s) => (s.folded ? `fold ${s.frames}: ${s.lines.map((l) => l.text.trim()).join(' / ')}` : s.lines.map((l) => `${l.inApp ? '*' : ''}${l.text.trim()}`).join(' / ')))

describe('traceLines and foldTrace', () => {
  it("emphasises a Unity trace's game frames and folds the engine's", () => {
    const unity = [
      'NullReferenceException: Object reference not set to an instance of an object',
      '  at InventoryPanel.Refresh () [0x0003a] in Assets/Scripts/InventoryPanel.cs:42',
      '  at UnityEngine.Events.InvokableCall.Invoke () [0x00010] in <4b2e1c>:0',
      '  at UnityEngine.Events.UnityEvent.Invoke () [0x00010] in <4b2e1c>:0',
      '  at UnityEngine.UI.Button.Press () [0x0001c] in <4b2e1c>:0',
      '  at GameLoop.Tick () [0x00001] in Assets/Scripts/GameLoop.cs:7',
      '  at UnityEngine.EventSystems.ExecuteEvents.Execute () [0x00001] in <4b2e1c>:0',
    ].join('\n')
    expect(shape(unity)).toEqual([
      'NullReferenceException: Object reference not set to an instance of an object / *at InventoryPanel.Refresh () [0x0003a] in Assets/Scripts/InventoryPanel.cs:42',
      'fold 3: at UnityEngine.Events.InvokableCall.Invoke () [0x00010] in <4b2e1c>:0 / at UnityEngine.Events.UnityEvent.Invoke () [0x00010] in <4b2e1c>:0 / at UnityEngine.UI.Button.Press () [0x0001c] in <4b2e1c>:0',
      // A lone engine frame stays shown: folding it would save nothing.
      '*at GameLoop.Tick () [0x00001] in Assets/Scripts/GameLoop.cs:7 / at UnityEngine.EventSystems.ExecuteEvents.Execute () [0x00001] in <4b2e1c>:0',
    ])
  })

  it('trusts the [in app] marks of a trace printed from a Sentry event, drops them, and keeps locals with their frame', () => {
    const sentry = [
      '  at load_slot (game/save.py:88) [in app]',
      '      locals: slot=3, path=None',
      '  at open (/usr/lib/python3.12/io.py:10)',
      '      locals: file=None',
      '  at _run (/usr/lib/python3.12/threading.py:20)',
      'Caused by: KeyError: 3',
      '  at lookup (game/tables.py:4) [in app]',
    ].join('\n')
    const lines = traceLines(sentry)
    expect(lines.map((l) => [l.kind, l.inApp])).toEqual([
      ['frame', true],
      ['detail', true],
      ['frame', false],
      ['detail', false],
      ['frame', false],
      ['other', false],
      ['frame', true],
    ])
    expect(lines[0]!.text).toBe('  at load_slot (game/save.py:88)')
    expect(shape(sentry)).toEqual([
      '*at load_slot (game/save.py:88) / *locals: slot=3, path=None',
      'fold 2: at open (/usr/lib/python3.12/io.py:10) / locals: file=None / at _run (/usr/lib/python3.12/threading.py:20)',
      'Caused by: KeyError: 3 / *at lookup (game/tables.py:4)',
    ])
  })

  it("keeps Python's source lines under their frame", () => {
    const py = ['Traceback (most recent call last):', '  File "/usr/lib/python3/runpy.py", line 1, in run', '    exec(code)', '  File "/usr/lib/python3/threading.py", line 2, in go', '    self.x()', '  File "game/main.py", line 9, in start', '    boom()', 'ValueError: no'].join('\n')
    expect(shape(py)).toEqual([
      'Traceback (most recent call last):',
      'fold 2: File "/usr/lib/python3/runpy.py", line 1, in run / exec(code) / File "/usr/lib/python3/threading.py", line 2, in go / self.x()',
      '*File "game/main.py", line 9, in start / *boom() / ValueError: no',
    ])
  })

  it('folds nothing when no frame is the game’s (a native crash without symbols), or when nothing parses', () => {
    const engine = ['  at UnityEngine.Debug.LogException () [0x0] in <1>:0', '  at System.Threading.Thread.Start () [0x0] in <2>:0'].join('\n')
    expect(traceLines(engine).map((l) => [l.kind, l.inApp])).toEqual([
      ['frame', false],
      ['frame', false],
    ])
    expect(foldTrace(traceLines(engine))).toEqual([{ folded: false, lines: traceLines(engine) }])
    expect(shape('just some text\nmore text')).toEqual(['just some text / more text'])
  })
})

describe('the src modules the dashboard imports by value', () => {
  it('import nothing but types and each other, so no server code reaches the browser bundle', () => {
    for (const file of ['in-app.ts', 'stack-text.ts', 'stack.ts']) {
      const text = readFileSync(new URL(`../../../src/modules/ingest/${file}`, import.meta.url), 'utf8')
      const imports = [...text.matchAll(/^import\s+(type\s+)?.*?from\s+'([^']+)'/gm)]
      for (const [line, typeOnly, from] of imports) expect(typeOnly || ['./stack', './in-app', './stack-text'].includes(from!), `${file}: ${line}`).toBeTruthy()
    }
  })
})
