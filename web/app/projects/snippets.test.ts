import { describe, expect, it } from 'vitest'
import { godotSentry, javascriptSentry, sessionsCurl, SNIPPETS, suggestedBudget, unitySentry, unrealCrashUrl, unrealSentry } from './snippets'

const DSN = 'https://sk_live_abc@bugs.example.com/42'

describe('Sentry snippets', () => {
  it("Unreal's crash reporter posts to /api/{dsn_id}/unreal/{key}/ on the DSN's server, a path prefix kept", () => {
    expect(unrealCrashUrl(DSN)).toBe('https://bugs.example.com/api/42/unreal/sk_live_abc/')
    expect(unrealCrashUrl('http://sk_live_abc@10.0.0.5:8080/glitchbox/7')).toBe('http://10.0.0.5:8080/glitchbox/api/7/unreal/sk_live_abc/')
  })

  it('each engine gets the DSN where its SDK reads it', () => {
    expect(unitySentry(DSN)).toContain(`options.Dsn = "${DSN}";`)
    expect(unitySentry(DSN)).toContain('public override void Configure(SentryUnityOptions options)')
    const unreal = unrealSentry(DSN).split('\n')
    expect(unreal).toEqual(expect.arrayContaining(['[/Script/Sentry.SentrySettings]', `Dsn="${DSN}"`, '[CrashReportClient]', 'DataRouterUrl="https://bugs.example.com/api/42/unreal/sk_live_abc/"']))
    expect(godotSentry(DSN).split('\n')).toEqual(expect.arrayContaining(['[sentry]', `options/dsn="${DSN}"`]))
    expect(javascriptSentry(DSN)).toContain(`dsn: "${DSN}",`)
  })

  it('the session calls start and end one session with the key in the body', () => {
    const [start, end] = sessionsCurl('https://bugs.example.com', 'sk_live_abc').split('\n\n')
    expect(start).toContain(`'https://bugs.example.com/api/sessions/start'`)
    expect(JSON.parse(/-d '(.*)'$/.exec(start!)![1]!)).toMatchObject({ api_key: 'sk_live_abc', session_token: expect.any(String) })
    expect(JSON.parse(/-d '(.*)'$/.exec(end!)![1]!)).toEqual({ api_key: 'sk_live_abc', session_token: 'a-random-id-per-run', crashed: false })
  })
})

describe('the snippet table', () => {
  it('has unique keys and one code per entry, Sentry ones saying so when there is no DSN', () => {
    expect(new Set(SNIPPETS.map((s) => s.key)).size).toBe(SNIPPETS.length)
    const context = { origin: 'https://bugs.example.com', apiKey: 'sk_live_abc', dsn: DSN }
    for (const s of SNIPPETS) expect(s.code(context).length, s.key).toBeGreaterThan(20)
    expect(SNIPPETS.filter((s) => s.group === 'sentry').map((s) => s.code({ ...context, dsn: null }))).toEqual(Array(4).fill('This project has no DSN yet.'))
  })

  it('suggests 300 a minute, or twice the budget past that', () => {
    expect([suggestedBudget(30), suggestedBudget(300), suggestedBudget(1000)]).toEqual([300, 600, 2000])
  })
})
