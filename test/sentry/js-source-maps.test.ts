// The hook sentry calls before reading a JavaScript event (issue 32): whatever the registered mapper
// does wrong, the event is filed as it came and the failure is logged, never thrown at the SDK.
import { describe, expect, it } from 'vitest'
import { mapJsEvent, registerJsEventMapper } from '../../src/modules/sentry/js-source-maps'

const warnings: string[] = []
const deps = { db: {} as never, files: {} as never, logger: { warn: (message: string) => warnings.push(message) } as never }
const event = { platform: 'javascript', exception: { values: [{ type: 'Error', value: 'boom', stacktrace: { frames: [{ abs_path: 'https://x/app.js', lineno: 1, colno: 9 }] } }] } }

describe('mapJsEvent', () => {
  it('files the event as it came when the mapper throws, and logs why', async () => {
    registerJsEventMapper(async () => {
      throw new Error('bundle unreadable')
    })
    expect(await mapJsEvent(deps, 'p1', event)).toBe(event)
    expect(warnings).toEqual(['a JavaScript event could not be mapped through source maps; filed as sent'])
  })

  it('takes the mapped copy when there is one, and the event itself when nothing mapped', async () => {
    const mapped = { ...event, release: 'mapped' }
    registerJsEventMapper(async (_deps, projectId) => (projectId === 'p1' ? mapped : null))
    expect(await mapJsEvent(deps, 'p1', event)).toBe(mapped)
    expect(await mapJsEvent(deps, 'p2', event)).toBe(event)
  })
})
