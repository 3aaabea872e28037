import type { BrowserHarness } from './harness'

/** A signed-up owner with a project and one SDK-filed report; returns what the public-page tests need. */
export async function publicProject(h: BrowserHarness, name: string) {
  const me = await h.signUp({ name: 'Olivia Owner' })
  const created = await h.api('POST', '/api/projects', { token: me.token, body: { name } })
  if (created.status !== 201) throw new Error(`project: ${created.status} ${JSON.stringify(created.body)}`)
  const { slug, api_key: apiKey } = created.body.data as { slug: string; api_key: string }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await h.api(method, path, { token: me.token, body })
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  return { me, slug, apiKey, call }
}

/**
 * Waits until report `number` reads back: an SDK submit answered while the server is busy (the
 * moment after it starts, on a loaded CI machine) is filed from the SDK inbox a moment later.
 */
export async function waitForReport(h: BrowserHarness, token: string, slug: string, number: number): Promise<void> {
  const deadline = Date.now() + 15_000
  while ((await h.api('GET', `/api/projects/${slug}/bugs/${number}`, { token })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`report #${number} was not filed within 15 s`)
    await Bun.sleep(100)
  }
}
