import { describe, expect, it } from 'vitest'
import { threadCpuMs } from '../../helpers/cpu-time'
import { exceptionTypeOf, MAX_CONTEXT_BYTES, readCrashContext } from '../../../src/modules/sentry/unreal/unreal-context'
import { UnrealCrashError } from '../../../src/modules/sentry/unreal/unreal-errors'
import { parseXml } from '../../../src/modules/sentry/unreal/unreal-xml'

const bytes = (s: string) => new TextEncoder().encode(s)
const context = (runtime: string, rest = '') =>
  readCrashContext(bytes(`<?xml version="1.0" encoding="UTF-8"?>\n<FGenericCrashContext>\n\t<RuntimeProperties>${runtime}</RuntimeProperties>${rest}\n</FGenericCrashContext>\n`))
/** The message readCrashContext refuses `xml` with. */
const refusal = (xml: string | Uint8Array): string => {
  try {
    readCrashContext(typeof xml === 'string' ? bytes(xml) : xml)
  } catch (error) {
    expect(error).toBeInstanceOf(UnrealCrashError)
    expect(error).toMatchObject({ reason: 'bad_context', status: 400 })
    return (error as Error).message
  }
  throw new Error('the context was accepted')
}

describe('readCrashContext', () => {
  it('reads a UE5 context: the exception type from the error message, the crashed thread when CallStack is absent', () => {
    // Shape of a UE 5.x CrashContext.runtime-xml (RuntimeProperties with IsStall and a <Threads> list).
    const c = context(
      `<CrashGUID>UECC-Windows-B54EF88243B5194B7B3140BECB7B6610_0000</CrashGUID><IsEnsure>false</IsEnsure><IsStall>false</IsStall><IsAssert>false</IsAssert>
       <CrashType>Crash</CrashType><ErrorMessage>Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x0000000000000050</ErrorMessage>
       <EngineVersion>5.6.1-44394996+++UE5+Release-5.6</EngineVersion><BuildVersion>++UE5+Release-5.6-CL-44394996</BuildVersion>
       <Misc.OSVersionMajor>Windows 11 (24H2) [10.0.26100.6584]</Misc.OSVersionMajor><Misc.OSVersionMinor/>
       <UserDescription>It crashed when I opened the map</UserDescription>
       <Threads><Thread><CallStack>ntdll 0x00007ffdf2260000 + 160e44\n</CallStack><IsCrashed>false</IsCrashed><ThreadName>RHIThread</ThreadName></Thread>
       <Thread><CallStack>VCRUNTIME140                 0x00007ffdd1880000 + 1cba8           \nGame-Win64-Shipping         0x00007ff600000000 + 234560          \n</CallStack><IsCrashed>true</IsCrashed><ThreadName>GameThread</ThreadName></Thread></Threads>`,
      '<EngineData><RHI.AdapterName>NVIDIA GeForce RTX 3070</RHI.AdapterName><DeviceProfile.Name>Windows</DeviceProfile.Name></EngineData><GameData><__sentry>{&quot;release&quot;:&quot;game@1.2.0&quot;}</__sentry></GameData>',
    )
    expect(c).toMatchObject({
      crashGuid: 'UECC-Windows-B54EF88243B5194B7B3140BECB7B6610_0000',
      crashType: 'Crash',
      isAssert: false,
      isEnsure: false,
      isStall: false,
      isCrash: true,
      exceptionType: 'EXCEPTION_ACCESS_VIOLATION',
      engineVersion: '5.6.1-44394996+++UE5+Release-5.6',
      osVersion: 'Windows 11 (24H2) [10.0.26100.6584]',
      userDescription: 'It crashed when I opened the map',
      engineData: { 'RHI.AdapterName': 'NVIDIA GeForce RTX 3070', 'DeviceProfile.Name': 'Windows' },
      gameData: { __sentry: '{"release":"game@1.2.0"}' },
    })
    expect(c.frames).toEqual([
      { module: 'VCRUNTIME140', address: '0x7ffdd189cba8', inApp: false },
      { module: 'Game-Win64-Shipping', address: '0x7ff600234560' },
    ])
  })

  it('falls back to the portable call stack, skipping its placeholder entries', () => {
    const c = context('<PCallStack>YetAnother 0x0000000025ca0000 + 703394 0x00000000ffffffff + ffffffff KERNEL32 0x000000000fd40000 + 13034</PCallStack>')
    expect(c.frames).toEqual([
      { module: 'YetAnother', address: '0x263a3394' },
      { module: 'KERNEL32', address: '0xfd53034', inApp: false },
    ])
  })

  it('tells an ensure and a stall (the game goes on) from a crash', () => {
    expect(context('<CrashType>Ensure</CrashType><IsEnsure>true</IsEnsure>').isCrash).toBe(false)
    expect(context('<CrashType>Stall</CrashType>').isCrash).toBe(false)
    expect(context('<CrashType>GPUCrash</CrashType>').isCrash).toBe(true)
    expect(context('<IsEnsure>1</IsEnsure>').isCrash).toBe(false)
    expect(context('').isCrash).toBe(true)
  })

  it('leaves out empty, missing and unreadable values rather than inventing them', () => {
    const c = context('<UserDescription /><UserName>   </UserName><IsAssert>maybe</IsAssert><MemoryStats.TotalPhysical>99999999999999999999</MemoryStats.TotalPhysical><TimeOfCrash>12</TimeOfCrash>')
    expect(c.userDescription).toBeUndefined()
    expect(c.userName).toBeUndefined()
    expect(c.isAssert).toBeUndefined()
    expect(c.ramBytes).toBeUndefined()
    expect(c.crashedAt).toBeUndefined()
    expect(c.frames).toEqual([])
    expect(readCrashContext(bytes('<FGenericCrashContext/>'))).toMatchObject({ isCrash: true, frames: [], engineData: {}, gameData: {} })
  })

  it('reads a context written in UTF-16 with a byte-order mark', () => {
    const xml = '<FGenericCrashContext><RuntimeProperties><GameName>Jeu–Ω</GameName></RuntimeProperties></FGenericCrashContext>'
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(xml, 'utf16le'))])
    expect(readCrashContext(utf16).gameName).toBe('Jeu–Ω')
  })

  it('refuses a DTD, so no entity is ever defined or expanded (billion laughs)', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><FGenericCrashContext><RuntimeProperties><GameName>&lol2;</GameName></RuntimeProperties></FGenericCrashContext>`
    expect(refusal(laughs)).toBe('the crash context has a DOCTYPE or ENTITY declaration, which is not accepted')
  })

  it('decodes only the five XML entities and character references, leaving any other name as text', () => {
    const c = context('<GameName>&lt;A&amp;B&gt; &quot;q&quot; &apos;a&apos; &#65;&#x42; &lol; &#0; &#xD800;</GameName><ErrorMessage><![CDATA[<raw> & text]]></ErrorMessage>')
    expect(c.gameName).toBe(`<A&B> "q" 'a' AB &lol; &#0; &#xD800;`)
    expect(c.errorMessage).toBe('<raw> & text')
  })

  it('skips comments, processing instructions and attributes', () => {
    const c = readCrashContext(bytes('<?xml version="1.0"?><!-- a <comment> --><FGenericCrashContext v="1>2"><RuntimeProperties a=\'x\'><GameName b="c">G</GameName><?pi x?></RuntimeProperties></FGenericCrashContext>'))
    expect(c.gameName).toBe('G')
  })

  it('refuses malformed XML with a message that says what is wrong', () => {
    expect(refusal('')).toBe('the crash context has no XML element')
    expect(refusal('<A><B></A>')).toBe('the crash context closes </A> where <B> is open')
    expect(refusal('<A></A><B/>')).toBe('the crash context has more than one root element')
    expect(refusal('text<A/>')).toBe('the crash context has text outside its root element')
    expect(refusal('<A><B>')).toBe('the crash context ends inside <B>')
    expect(refusal('<A><!-- never closed</A>')).toBe('the crash context ends inside a comment')
    expect(refusal('<A><![CDATA[ never closed</A>')).toBe('the crash context ends inside a CDATA section')
    expect(refusal('<A attr="x>')).toBe('the crash context has a tag that is never closed with >')
    expect(refusal('<A><1bad/></A>')).toBe('the crash context has a malformed tag <1bad/>')
    expect(refusal('</A>')).toBe('the crash context closes </A> where no element is open')
  })

  it('refuses nesting deeper than 16 levels and more than 20,000 elements, quickly', () => {
    const started = threadCpuMs()
    expect(refusal(`<A>${'<n>'.repeat(30_000)}${'</n>'.repeat(30_000)}</A>`)).toBe('the crash context nests deeper than 16 levels')
    expect(refusal(`<A>${'<n/>'.repeat(20_001)}</A>`)).toBe('the crash context has more than 20000 elements')
    expect(threadCpuMs() - started).toBeLessThan(2000)
  })

  it('reads or refuses hostile 4 MB documents in linear time', () => {
    const size = MAX_CONTEXT_BYTES - 64
    const hostile = ['<', '<a', '<!--', '</', '<a x="', '&', '&#', '<A>&amp;', '<A><![CDATA[', '<A><?', '<A><b/>'].map((unit) => unit.repeat(Math.floor(size / unit.length)))
    const started = threadCpuMs()
    for (const doc of hostile) {
      try {
        readCrashContext(bytes(doc))
      } catch (error) {
        expect(error).toBeInstanceOf(UnrealCrashError)
      }
    }
    expect(threadCpuMs() - started).toBeLessThan(5000)
  })

  it('refuses a context over 4 MB without reading it', () => {
    const huge = new Uint8Array(MAX_CONTEXT_BYTES + 1).fill(0x20)
    expect(refusal(huge)).toBe(`the crash context is ${MAX_CONTEXT_BYTES + 1} bytes (at most ${MAX_CONTEXT_BYTES})`)
  })

  it('reads a 4 MB context with a huge call stack in linear time', () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `Game!Fn${i}() [C:\\Src\\File.cpp:${i}]`).join('\n')
    const started = threadCpuMs()
    const c = context(`<CallStack>${lines}</CallStack><ErrorMessage>${'x'.repeat(1_000_000)}</ErrorMessage>`)
    expect(c.frames).toHaveLength(256) // the innermost MAX_FRAMES
    expect(c.frames[255]).toEqual({ function: 'Fn255', module: 'Game', file: 'C:\\Src\\File.cpp', line: 255 })
    expect(threadCpuMs() - started).toBeLessThan(2000)
  })
})

describe('exceptionTypeOf', () => {
  it.each([
    ['Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x00000000', 'EXCEPTION_ACCESS_VIOLATION'],
    ['Unhandled Exception: EXCEPTION_STACK_OVERFLOW', 'EXCEPTION_STACK_OVERFLOW'],
    ['Unhandled Exception: 0x80000003', '0x80000003'],
    ['Unhandled Exception: SIGSEGV: invalid attempt to write memory at address 0x0000000000000003', 'SIGSEGV'],
    [' SEGV_MAPERR at 0x88', 'SEGV_MAPERR'],
    ['Access violation - code c0000005 (first/second chance not available)', 'EXCEPTION_ACCESS_VIOLATION'],
    ['Assertion failed: false [File:Foo.cpp] [Line: 21] test', undefined],
    ['Fatal error: [File:Foo.cpp] [Line: 3] Out of memory', undefined],
  ])('%s → %s', (message, type) => {
    expect(exceptionTypeOf(message)).toBe(type)
  })
})

describe('parseXml', () => {
  it('builds the element tree with each element\'s own text', () => {
    expect(parseXml('<A>one<B>two</B>three<C/></A>')).toEqual({
      name: 'A',
      text: 'onethree',
      children: [
        { name: 'B', text: 'two', children: [] },
        { name: 'C', text: '', children: [] },
      ],
    })
  })
})
