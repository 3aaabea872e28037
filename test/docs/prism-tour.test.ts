import { afterAll, describe, expect, it } from 'vitest'
import { operationDocs } from '../../src/docs/responses'
import { freePort } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { TOOL_ENV, toolBin, writeDocument } from './contract-tools'
import { TOUR } from './tour'
import type { TourStep } from './tour/tour.types'
import { createTourWorld } from './tour/tour-world'

/**
 * The OpenAPI document is the server's contract: a scripted tour sends at least one request per operation,
 * with real data (projects, reports, files, integrations against local fakes), through Prism as a validating
 * proxy (`prism proxy --errors`), which checks each request and each answer against /openapi.json.
 * Any violation fails the step that caused it.
 */
const w = await createTourWorld()
const dir = tempDir('prism')
const { file, doc } = await writeDocument(w.t, dir)
const port = await freePort()
const prismUrl = `http://127.0.0.1:${port}`
const prism = Bun.spawn([toolBin('prism'), 'proxy', file, w.serverUrl, '--errors', '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn'], {
  env: TOOL_ENV,
  stdout: 'pipe',
  stderr: 'pipe',
})
afterAll(async () => {
  prism.kill()
  await prism.exited
  await w.close()
  removeTempDir(dir)
})
let prismLog = ''
for (const stream of [prism.stdout, prism.stderr]) {
  void (async () => {
    for await (const chunk of stream) prismLog = (prismLog + new TextDecoder().decode(chunk)).slice(-20_000)
  })()
}
// Prism reads the whole document before it listens (a few seconds).
const deadline = Date.now() + 60_000
while (!(await fetch(`${prismUrl}/health`).then(() => true, () => false))) {
  if (prism.exitCode !== null || Date.now() > deadline) throw new Error(`prism did not start:\n${prismLog}`)
  await Bun.sleep(100)
}

const operations = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))

/** The credential headers of a caller. */
function credentials(step: TourStep): Record<string, string> {
  if (step.token) return { authorization: `Bearer ${step.token(w)}` }
  switch (step.as ?? 'owner') {
    case 'owner':
      return { authorization: `Bearer ${w.owner.token}` }
    case 'payer':
      return { authorization: `Bearer ${w.payer.token}` }
    case 'user':
      return { authorization: `Bearer ${w.v.userToken}` }
    case 'sdk':
      return { 'x-api-key': w.v.apiKey! }
    case 'anonymous':
      return {}
  }
}

function pathOf(key: string, step: TourStep): string {
  const values = { ...w.v, ...step.params?.(w) }
  const path = key.slice(key.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`${key}: no value for {${name}} yet (an earlier step keeps it)`)
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams(step.query?.(w)).toString()
  return query ? `${path}?${query}` : path
}

function encodeBody(value: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (value === undefined || value instanceof FormData) return value
  if (value && typeof value === 'object' && 'raw' in value && 'type' in value) {
    headers['content-type'] = String(value.type)
    return String(value.raw)
  }
  headers['content-type'] = 'application/json'
  return JSON.stringify(value)
}

describe('the OpenAPI document is the contract: a tour of every operation through Prism', () => {
  it('has a tour step for every operation of the document, and none for an operation it lacks', () => {
    const missing = operations.filter((key) => !TOUR[key])
    expect(missing, `operations with no tour step (add one to test/docs/tour/): ${missing.join(', ')}`).toEqual([])
    const stale = Object.keys(TOUR).filter((key) => !operations.includes(key))
    expect(stale, `tour steps for operations the document does not have: ${stale.join(', ')}`).toEqual([])
  })

  it.each(Object.entries(TOUR).filter(([key]) => operations.includes(key)))('%s', async (key, step) => {
    await step.before?.(w)
    const method = key.slice(0, key.indexOf(' '))
    const headers: Record<string, string> = { ...credentials(step), ...step.headers?.(w) }
    const body = encodeBody(step.body?.(w), headers)
    const res = await fetch(`${prismUrl}${pathOf(key, step)}`, { method, headers, body, redirect: 'manual' })
    const text = await res.text()
    const violations = res.headers.get('sl-violations')
    const refusedByPrism = (res.headers.get('content-type') ?? '').includes('application/problem+json')
    expect(violations ?? (refusedByPrism ? text : null), `Prism found violations:\n${violations ?? text}`).toBeNull()
    const expected = step.status ?? operationDocs[key]?.status ?? 200
    expect(res.status, `${key} answered ${res.status}: ${text.slice(0, 500)}`).toBe(expected)
    if (step.keep) {
      const json = JSON.parse(text)
      step.keep(json && typeof json === 'object' && 'ok' in json ? json.data : json, w)
    }
  })
})
