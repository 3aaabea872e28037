import { describe, expect, it } from 'vitest'
import { extractErrorType } from '../../src/modules/reports/error-type'

const sdk = (stack: string, logs = 'Loaded scene Main\nPlayer joined lobby TypeError-free') => `Auto-filed by the SDK.\n\n--- Stack Trace ---\n${stack}\n\n--- Recent Logs ---\n${logs}`

const cases: [string, string, string, string][] = [
  [
    'Unity C# via the SDK',
    '[Error] NullReferenceException: Object reference not set to an instance of an object',
    sdk('PlayerController.Update () (at Assets/Scripts/PlayerController.cs:42)'),
    'NullReferenceException',
  ],
  [
    'Unity, class only in the stack trace',
    '[Error] Object reference not set to an instance of an object',
    sdk('NullReferenceException: Object reference not set to an instance of an object\n  at Inventory.Add (Item item) [0x00012] in Inventory.cs:88'),
    'NullReferenceException',
  ],
  ['C# qualified', 'Crash when saving', 'System.IO.IOException: Sharing violation on path save.dat\n   at System.IO.FileStream..ctor()', 'System.IO.IOException'],
  ['Unity engine namespace', 'Boss fight breaks', 'UnityEngine.MissingReferenceException: The object of type GameObject has been destroyed', 'UnityEngine.MissingReferenceException'],
  [
    'Java',
    'App closes on resume',
    'Exception in thread "main" java.lang.IllegalStateException: Fragment not attached to a context.\n\tat androidx.fragment.app.Fragment.requireContext(Fragment.java:900)\nCaused by: java.io.IOException: closed',
    'java.lang.IllegalStateException',
  ],
  [
    'Android fatal exception',
    'Crash on launch',
    'FATAL EXCEPTION: main\nProcess: com.studio.game, PID: 4242\njava.lang.NullPointerException: Attempt to invoke virtual method on a null object reference',
    'java.lang.NullPointerException',
  ],
  ['Kotlin', '[Error] kotlin.UninitializedPropertyAccessException: lateinit property adapter has not been initialized', '', 'kotlin.UninitializedPropertyAccessException'],
  ['JS TypeError', 'Menu broken', "Uncaught TypeError: Cannot read properties of undefined (reading 'x')\n    at Object.<anonymous> (/app/main.js:3:5)", 'TypeError'],
  ['JS promise rejection', 'Uncaught (in promise) RangeError: Maximum call stack size exceeded', '', 'RangeError'],
  ['JS generic Error is too vague', 'Login fails', 'Error: request failed\n    at fetchJson (api.js:10:11)', ''],
  [
    'Python traceback: the last exception counts',
    'Inventory crash',
    'Traceback (most recent call last):\n  File "game.py", line 10, in <module>\n    item = inventory["sword"]\nKeyError: \'sword\'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "game.py", line 12, in <module>\n    raise ValueError("no sword")\nValueError: no sword',
    'ValueError',
  ],
  ['Python KeyError', 'Inventory crash', 'Traceback (most recent call last):\n  File "inv.py", line 3, in get\n    return items[name]\nKeyError: \'sword\'', 'KeyError'],
  ['Python qualified', 'Cannot connect', 'Traceback (most recent call last):\n  File "net.py", line 8, in join\nrequests.exceptions.ConnectionError: HTTPSConnectionPool', 'requests.exceptions.ConnectionError'],
  [
    'C++ std::out_of_range',
    'Crash after level 3',
    "terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)\n#0 std::vector<int>::at(unsigned long)",
    'std::out_of_range',
  ],
  ['libc++ inline namespace', "libc++abi: terminating due to uncaught exception of type std::__1::bad_alloc: std::bad_alloc", '', 'std::bad_alloc'],
  ['std container in a frame is not an exception', 'Slow load', '#0 std::vector<int>::at(unsigned long)\n#1 main', ''],
  ['SIGSEGV', 'Game crashed', 'Received signal SIGSEGV (Segmentation fault)\n#0 0x00007f libgame.so', 'SIGSEGV'],
  ['SIGABRT from Android', 'Crash', 'Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 1234 (RenderThread)', 'SIGABRT'],
  ['Unreal access violation', 'Crash in editor', 'Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x00000000', 'EXCEPTION_ACCESS_VIOLATION'],
  ['iOS Mach exception', 'Crash on iPad', 'Exception Type:  EXC_BAD_ACCESS (SIGSEGV)', 'EXC_BAD_ACCESS'],
  ['Godot bracketed', "[Script Error] Invalid get index 'position' (on base: 'null instance')", '', 'Script Error'],
  ['Godot 4 output', 'Player stuck', "SCRIPT ERROR: Invalid get index 'position' (on base: 'Nil').\n   at: _process (res://player.gd:12)", 'Script Error'],
  ['Godot user script error', 'Crash', 'USER SCRIPT ERROR: Division by zero error in operator \'/\'.', 'Script Error'],
  ['Godot shader', '[Shader Error] unexpected token', '', 'Shader Error'],
  ['SDK freeze with no class', '[Freeze] Main thread unresponsive for 5.2s', sdk('Main thread stack:\n  at Renderer.Wait()'), 'Freeze'],
  ['SDK freeze with a class', '[Freeze] Deadlock', sdk('System.Threading.ThreadInterruptedException: Thread was interrupted'), 'System.Threading.ThreadInterruptedException'],
  [
    'recent logs are not the stack',
    '[Error] Something went wrong',
    sdk('at GameLoop.Tick()', 'ArgumentException: earlier, unrelated log line'),
    '',
  ],
  ['plain player report', 'The sword glitches through walls', 'When I swing near a wall the blade clips through. Error happens every time.', ''],
  ['title wins over the description', 'IndexOutOfRangeException in shop', 'java.lang.IllegalStateException: other', 'IndexOutOfRangeException'],
  ['Objective-C', 'Crash', "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[NSNull length]'", 'NSInvalidArgumentException'],
]

describe('extractErrorType', () => {
  it.each(cases)('%s', (_name, title, description, expected) => {
    expect(extractErrorType(title, description)).toBe(expected)
  })

  it('caps absurdly long class names', () => {
    expect(extractErrorType(`${'A'.repeat(300)}Exception`).length).toBe(200)
  })
})
