import { describe, expect, it } from 'vitest'
import { readUnrealQuery, unrealAnswer } from '../../../src/modules/sentry/unreal/unreal-http'

describe('unrealAnswer', () => {
  it('answers 200 with the event id as a hyphenated UUID in plain text, as relay does', () => {
    expect(unrealAnswer('0123456789ABCDEF0123456789abcdef')).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: '01234567-89ab-cdef-0123-456789abcdef',
    })
    expect(unrealAnswer('01234567-89ab-cdef-0123-456789abcdef').body).toBe('01234567-89ab-cdef-0123-456789abcdef')
  })
})

describe('readUnrealQuery', () => {
  it('reads the ids CrashReportClient puts in UserID and the engine version', () => {
    // As a UE 5.6 CrashReportClient sent it (the login id, no Epic account, the machine id).
    const query = new URLSearchParams('AppID=CrashReporter&AppVersion=5.6.1-0%2BUE5&AppEnvironment=Release&UploadType=crashreports&UserID=fb1395264275145b52c8cca3e0fd2fcd%7C%7C6536aa78-2595-4e2a-b190-86ad21120ab8')
    expect(readUnrealQuery(query)).toEqual({ loginId: 'fb1395264275145b52c8cca3e0fd2fcd', epicAccountId: undefined, machineId: '6536aa78-2595-4e2a-b190-86ad21120ab8', appVersion: '5.6.1-0+UE5' })
  })

  it('ignores a missing or overlong UserID', () => {
    expect(readUnrealQuery(new URLSearchParams(''))).toEqual({ loginId: undefined, epicAccountId: undefined, machineId: undefined, appVersion: undefined })
    expect(readUnrealQuery(new URLSearchParams({ UserID: 'a'.repeat(300) })).loginId).toBeUndefined()
  })
})
