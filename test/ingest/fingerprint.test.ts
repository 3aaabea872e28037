import { describe, expect, it } from 'vitest'
import { groupingOf, normalizeFile, normalizeFunction, normalizeTitle } from '../../src/modules/ingest/fingerprint'
import { framesOfText, parseFrameLine, stackTraceSection } from '../../src/modules/ingest/stack-text'
import { isInApp } from '../../src/modules/ingest/in-app'
import { threadCpuMs } from '../helpers/cpu-time'

const NRE = 'NullReferenceException: Object reference not set to an instance of an object'
const unityStack = (file: string, fn: string, line: number) =>
  `${NRE}\n  at ${fn} () [0x00012] in Assets/Scripts/${file}:${line}\n  at UnityEngine.Events.InvokableCall.Invoke () [0x00010] in <a1b2c3>:0\n  at UnityEngine.EventSystems.ExecuteEvents.Execute () [0x00000] in <a1b2c3>:0`

const crash = (stack: string, title = `[Error] ${NRE}`) => groupingOf({ kind: 'auto', title, errorType: 'NullReferenceException', frames: framesOfText(stack) })

describe('grouping by stack', () => {
  it('splits one Unity message thrown in two places (the same message is in every NullReferenceException)', () => {
    const inventory = crash(unityStack('InventoryPanel.cs', 'InventoryPanel.Refresh', 42))
    const boost = crash(unityStack('BoostController.cs', 'BoostController.Update', 17))
    expect(inventory.fingerprint).not.toBe(boost.fingerprint)
    expect(inventory.label).toBe('NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)')
  })

  it('joins one place sent with other messages, line numbers, IL offsets and paths', () => {
    const a = crash(unityStack('InventoryPanel.cs', 'InventoryPanel.Refresh', 42), '[Error] NullReferenceException: Object reference not set to an instance of an object')
    const b = groupingOf({
      kind: 'auto',
      title: '[Error] NullReferenceException: inventory slot 3 was null',
      errorType: 'NullReferenceException',
      frames: framesOfText('  at InventoryPanel.Refresh () [0x0004a] in C:\\Users\\qa\\Game\\Assets\\Scripts\\InventoryPanel.cs:57'),
    })
    expect(b.fingerprint).toBe(a.fingerprint)
  })

  it('keys on the top in-app frame, past engine frames above it', () => {
    const stack = 'at UnityEngine.Debug.LogException (System.Exception exception)\n  at System.Collections.Generic.List`1[T].get_Item (System.Int32 index)\n  at Shop.Buy (Item item) (at Assets/Shop.cs:10)'
    expect(crash(stack).label).toBe('NullReferenceException at Shop.Buy (Shop.cs)')
  })

  it('strips generic arity, lambda ordinals and hex ids from function names', () => {
    expect(normalizeFunction('Game.Loader`1[T].<LoadAsync>d__12.MoveNext ()')).toBe('Game.Loader.<LoadAsync>d__.MoveNext')
    expect(normalizeFunction('Shop.<>c__DisplayClass5_0.<Buy>b__2')).toBe('Shop.<>c__DisplayClass.<Buy>b__')
    expect(normalizeFunction('com.studio.Menu.lambda$onClick$3')).toBe('com.studio.Menu.lambda$onClick$')
    expect(normalizeFunction('com.studio.Menu$1.run')).toBe('com.studio.Menu$.run')
    expect(normalizeFunction('UEngine::Exec(UWorld*, const wchar_t*) + 0x1a')).toBe('UEngine::Exec')
    expect(normalizeFile('https://cdn.example/assets/app.3f2a1b9c.js?v=2')).toBe('app.js')
    expect(normalizeFile('D:\\Src\\Game\\MyActor.cpp:42')).toBe('MyActor.cpp')
  })

  it('keeps the offset of a native frame without symbols', () => {
    const g = (offset: string) => groupingOf({ kind: 'auto', title: 'EXCEPTION_ACCESS_VIOLATION_READ', errorType: 'EXCEPTION_ACCESS_VIOLATION_READ', frames: [{ module: 'C:\\Games\\game.exe', address: offset }] })
    expect(g('0x1a2b3c').label).toBe('EXCEPTION_ACCESS_VIOLATION_READ at game.exe+0x1a2b3c')
    expect(g('0x1a2b3c').fingerprint).not.toBe(g('0x1a2b40').fingerprint)
  })
})

describe('grouping on a top frame that names no code (CONTRACT § "Sentry SDKs")', () => {
  // A minified bundle: the callback that threw is known only by its file, and below it sits the SDK's wrapper.
  const bundle = (message: string, column: number, fn = '?') =>
    groupingOf({
      kind: 'auto',
      title: `TypeError: ${message}`,
      errorType: 'TypeError',
      frames: [
        { function: fn, file: 'https://game.example/demo.3f2a1b9c.js', line: 1, column, inApp: true },
        { function: 'sentryWrapped', file: 'https://game.example/demo.3f2a1b9c.js', line: 1, column: 9000, inApp: true },
      ],
    })

  it('keys three different errors from anonymous callbacks in one file apart, by type and message', () => {
    const keys = [bundle('sprite is undefined', 100), bundle("Cannot read properties of null (reading 'x')", 200, '<anonymous>'), bundle('level.tiles is not iterable', 300)]
    expect(new Set(keys.map((k) => k.fingerprint)).size).toBe(3)
    expect(keys[0]!.label).toBe('TypeError: sprite is undefined')
  })

  it('joins one error thrown twice from the same anonymous code, numbers and quoted values aside', () => {
    expect(bundle("Cannot read properties of null (reading 'x')", 200).fingerprint).toBe(bundle("Cannot read properties of null (reading 'y')", 200).fingerprint)
    expect(bundle('enemy 12 has no sprite', 5).fingerprint).toBe(bundle('enemy 7 has no sprite', 900).fingerprint)
  })

  it('still keys on a named top frame, whatever the message', () => {
    expect(bundle('sprite is undefined', 100, 'drawHud').fingerprint).toBe(bundle('hud is null', 100, 'drawHud').fingerprint)
    expect(bundle('sprite is undefined', 100, 'drawHud').label).toBe('TypeError at drawHud (demo.js)')
  })
})

describe('grouping without a stack', () => {
  it('joins an Unreal crash whose title carries three faulting addresses', () => {
    const keys = ['0x40', '0x48', '0x00000000DEADBEEF'].map(
      (a) => groupingOf({ kind: 'auto', title: `[Error] EXCEPTION_ACCESS_VIOLATION reading address ${a}`, errorType: 'EXCEPTION_ACCESS_VIOLATION', frames: [] }).fingerprint,
    )
    expect(new Set(keys).size).toBe(1)
  })

  it('normalizes numbers, ids and quoted values in automatic titles', () => {
    expect(normalizeTitle('[Freeze] Main thread unresponsive for 5.2s')).toBe('[Freeze] Main thread unresponsive for #s')
    expect(normalizeTitle(`[Error] KeyError: 'sword' in slot 12`)).toBe(`[Error] KeyError: '?' in slot #`)
    expect(normalizeTitle('[Error] asset 3f9a2b7c1d missing for 8c1e2f7a-1b2c-4d5e-8f90-123456789abc')).toBe('[Error] asset <id> missing for <id>')
  })

  it('keeps player reports by their title, numbers included', () => {
    const p = (title: string) => groupingOf({ kind: 'player', title, errorType: '', frames: [] }).fingerprint
    expect(p('Door on level 3 is stuck')).toBe(p('door on  level 3 is stuck'))
    expect(p('Door on level 3 is stuck')).not.toBe(p('Door on level 4 is stuck'))
  })
})

describe('client fingerprints', () => {
  it('are honoured, and {{ default }} stands for the default rule', () => {
    const base = { kind: 'auto' as const, title: '[Error] x', errorType: 'TypeError', frames: framesOfText('at refresh (https://g.example/app.js:10:5)') }
    const custom = groupingOf({ ...base, clientFingerprint: ['payment-flow'] })
    expect(custom.label).toBe('custom: payment-flow')
    expect(custom.fingerprint).toBe(groupingOf({ ...base, frames: [], clientFingerprint: ['payment-flow'] }).fingerprint)
    const withDefault = groupingOf({ ...base, clientFingerprint: ['{{ default }}', 'eu-west'] })
    expect(withDefault.label).toBe('TypeError at refresh (app.js) · eu-west')
    expect(withDefault.fingerprint).not.toBe(groupingOf(base).fingerprint)
    expect(groupingOf({ ...base, clientFingerprint: ['{{default}}'] }).fingerprint).toBe(groupingOf({ ...base, clientFingerprint: ['{{ default }}'] }).fingerprint)
  })
})

describe('stack trace text', () => {
  const cases: [string, string, object | null][] = [
    ['Unity', 'InventoryPanel.Refresh () (at Assets/Scripts/InventoryPanel.cs:42)', { function: 'InventoryPanel.Refresh', file: 'Assets/Scripts/InventoryPanel.cs', line: 42 }],
    ['.NET', 'at Game.UI.Panel.Refresh() in C:\\src\\Panel.cs:line 42', { function: 'Game.UI.Panel.Refresh', file: 'C:\\src\\Panel.cs', line: 42 }],
    ['Java', 'at com.studio.Inventory.refresh(Inventory.java:88)', { function: 'com.studio.Inventory.refresh', file: 'Inventory.java', line: 88 }],
    ['V8', 'at refresh (https://g.example/app.js:10:5)', { function: 'refresh', file: 'https://g.example/app.js', line: 10, column: 5 }],
    ['V8 anonymous', 'at https://g.example/app.js:10:5', { file: 'https://g.example/app.js', line: 10, column: 5 }],
    ['Firefox', 'refresh@https://g.example/app.js:10:5', { function: 'refresh', file: 'https://g.example/app.js', line: 10, column: 5 }],
    ['Python', 'File "inv.py", line 3, in get', { file: 'inv.py', line: 3, function: 'get' }],
    ['Godot 4', 'at: _process (res://player.gd:12)', { function: '_process', file: 'res://player.gd', line: 12 }],
    ['Unreal', 'MyGame!AMyActor::Tick() [D:\\Src\\MyActor.cpp:42]', { module: 'MyGame', function: 'AMyActor::Tick()', file: 'D:\\Src\\MyActor.cpp', line: 42 }],
    ['Unreal unknown', '0x00007ff6a1b2c3d4 UnrealEditor-Core.dll!UnknownFunction []', { address: '0x00007ff6a1b2c3d4', module: 'UnrealEditor-Core.dll', function: 'UnknownFunction' }],
    ['gdb', '#0 0x00007f12 in std::vector<int>::at (this=0x1) at vec.h:12', { address: '0x00007f12', function: 'std::vector<int>::at', file: 'vec.h', line: 12 }],
    ['gdb library', '#0 0x00007f libgame.so', { address: '0x00007f', module: 'libgame.so' }],
    ['Apple', '0   libsystem_kernel.dylib  0x00000001a2b3c4d5 __pthread_kill + 8', { module: 'libsystem_kernel.dylib', address: '0x00000001a2b3c4d5', function: '__pthread_kill' }],
    ['exception line', 'NullReferenceException: Object reference not set', null],
    ['chain marker', 'Caused by: java.io.IOException: closed', null],
    ['prose', 'The game froze while loading', null],
  ]
  it.each(cases)('%s', (_name, line, expected) => {
    const f = parseFrameLine(line)
    if (expected === null) expect(f).toBeNull()
    else expect(f).toMatchObject(expected)
  })

  it('reads Python tracebacks innermost first', () => {
    const frames = framesOfText('Traceback (most recent call last):\n  File "game.py", line 10, in main\n    run()\n  File "inv.py", line 3, in get\n    return items[name]\nKeyError: \'sword\'')
    expect(frames.map((f) => f.function)).toEqual(['get', 'main'])
  })

  it('finds the section of an auto-filed description', () => {
    const d = `Boom\n\n--- Stack Trace ---\n  at A.B () in a.cs:1\n\n--- Recent Logs ---\n[Log] at X.Y () in x.cs:2`
    expect(framesOfText(stackTraceSection(d)!).map((f) => f.function)).toEqual(['A.B'])
    expect(stackTraceSection('no stack here')).toBeNull()
  })

  it('tells engine frames from the game', () => {
    expect(isInApp({ function: 'UnityEngine.Debug.LogException' })).toBe(false)
    expect(isInApp({ function: 'SystemMenu.Open' })).toBe(true)
    expect(isInApp({ file: '/app/node_modules/react/index.js', function: 'render' })).toBe(false)
    expect(isInApp({ module: 'ntdll.dll', address: '0x10' })).toBe(false)
    expect(isInApp({ function: 'InventoryPanel.Refresh', inApp: false })).toBe(false)
  })

  it('reads at most 200 frames of a hostile text, quickly', () => {
    const text = 'at A.B () in a.cs:1\n'.repeat(100_000)
    const t0 = threadCpuMs()
    expect(framesOfText(text).length).toBeLessThanOrEqual(200)
    expect(threadCpuMs() - t0).toBeLessThan(1000)
  })
})
