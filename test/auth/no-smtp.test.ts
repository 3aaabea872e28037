import { afterEach, describe, expect, it } from 'vitest'
import { mailOutbox } from '../../src/mail/mail.table'
import { adminVerifyEmail } from '../../src/modules/auth/auth.cli'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { signupViaApi } from './auth-helpers'

let t: TestApp
afterEach(() => t.close())

const me = async (token: string) => (await t.request('GET', '/api/auth/me', { token })).body.data

describe('a server without SMTP', () => {
  it('verifies the first account of the server as it signs up and mails it nothing; later accounts get the usual link', async () => {
    t = createTestApp()
    expect((await t.request('GET', '/api/server-info')).body.data.mail_configured).toBe(false)

    const first = await signupViaApi(t, { email: 'ops@studio.example' })
    expect(first.email_verified).toBe(true)
    expect((await me(first.token)).email_verified).toBe(true)
    expect(await t.deps.db.read((q) => q.select().from(mailOutbox))).toEqual([])

    const second = await signupViaApi(t, { email: 'artist@studio.example' })
    expect(second.email_verified).toBe(false)
    expect(await t.deps.db.read((q) => q.select({ to: mailOutbox.to, status: mailOutbox.status }).from(mailOutbox))).toEqual([{ to: 'artist@studio.example', status: 'kept' }])
  })

  it('`admin verify` marks an address verified and uses up its pending link', async () => {
    t = createTestApp()
    await signupViaApi(t, { email: 'ops@studio.example' })
    const second = await signupViaApi(t, { email: 'artist@studio.example' })
    const link = /https?:\/\/\S+/.exec((await t.deps.db.read((q) => q.select().from(mailOutbox)))[0]!.text)![0]

    expect(await adminVerifyEmail(t.deps, ' Artist@Studio.example ')).toEqual({ alreadyVerified: false })
    expect((await me(second.token)).email_verified).toBe(true)
    expect((await t.request('GET', new URL(link).pathname + new URL(link).search)).status).toBe(400)
    expect(await adminVerifyEmail(t.deps, 'artist@studio.example')).toEqual({ alreadyVerified: true })
    await expect(adminVerifyEmail(t.deps, 'ghost@studio.example')).rejects.toThrow('no user with the email ghost@studio.example')
  })
})

describe('a server with SMTP', () => {
  it('says so in /server-info and mails the first account its link like every other', async () => {
    t = createTestApp({ transport: { send: async () => {} } })
    expect((await t.request('GET', '/api/v1/server-info')).body.data.mail_configured).toBe(true)
    const first = await signupViaApi(t, { email: 'ops@studio.example' })
    expect(first.email_verified).toBe(false)
    expect(await t.deps.db.read((q) => q.select({ to: mailOutbox.to, status: mailOutbox.status }).from(mailOutbox))).toEqual([{ to: 'ops@studio.example', status: 'queued' }])
  })
})
