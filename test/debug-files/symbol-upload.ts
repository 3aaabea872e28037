import { expect } from 'vitest'
import type { TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { debugFixture } from './fixture'

const sha1 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')

/** Uploads `.sym` fixtures to the project as sentry-cli does (an API token, the chunks, then the assemble call), each answered ok. */
export async function uploadSymbols(t: TestApp, owner: TestUser, slug: string, ...names: string[]): Promise<void> {
  const token = (await t.request('POST', '/api/auth/api-tokens', { token: owner.token, body: { name: 'CI', scopes: ['debug_files.upload'] } })).body.data.token as string
  for (const name of names) {
    const sym = debugFixture(name)
    const form = new FormData()
    form.append('file', new Blob([sym as Uint8Array<ArrayBuffer>]), sha1(sym))
    expect((await t.request('POST', '/api/0/organizations/studio/chunk-upload/', { token, body: form })).status).toBe(200)
    const res = await t.request('POST', `/api/0/projects/studio/${slug}/files/difs/assemble/`, { token, body: { [sha1(sym)]: { name, chunks: [sha1(sym)] } } })
    expect(res.body[sha1(sym)].state).toBe('ok')
  }
}
