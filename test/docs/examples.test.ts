// The docs viewer (Scalar, at /docs) shows an example of every request body and answer, made from the
// schemas: they must show values a person would send (issue 25), not `""` or -9007199254740991.
import { getExampleFromSchema } from '@scalar/oas-utils/spec-getters'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLES } from '../../src/docs/examples'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let doc: Record<string, any>
beforeAll(async () => {
  t = createTestApp()
  doc = (await t.request('GET', '/openapi.json')).body
})
afterAll(() => t.close())

/** Every operation with the examples the viewer shows for its JSON request body and success answer. */
function viewerExamples() {
  const out: { key: string; part: string; example: unknown }[] = []
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, any>>(item)) {
      const key = `${method.toUpperCase()} ${path}`
      const body = op.requestBody?.content?.['application/json']?.schema
      if (body) out.push({ key, part: 'request', example: getExampleFromSchema(body) })
      for (const [status, res] of Object.entries<Record<string, any>>(op.responses ?? {})) {
        const schema = res.content?.['application/json']?.schema
        if (status.startsWith('2') && schema) out.push({ key, part: status, example: getExampleFromSchema(schema) })
      }
    }
  }
  return out
}

/** Every `[field, value]` of an example, nested ones included. */
function fieldsOf(v: unknown, into: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(v)) for (const x of v) fieldsOf(x, into)
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      into.push([k, x])
      fieldsOf(x, into)
    }
  return into
}

describe('examples in the API docs', () => {
  it('the submit answer shows a report number a person would see, the stacked (200) one too', () => {
    const submit = doc.paths['/api/bugs/submit'].post
    const stacked = getExampleFromSchema(submit.responses['200'].content['application/json'].schema) as { data: Record<string, unknown> }
    expect(stacked.data).toMatchObject({ report_number: 42, id: EXAMPLES.id })
    expect(submit.responses['201'].content['application/json'].example.data.report_number).toBe(42)
  })

  it('no schema keeps the safe-integer bounds zod gives every integer, and no example shows them', () => {
    expect(JSON.stringify(doc)).not.toMatch(/9007199254740991/)
    const huge = viewerExamples().flatMap(({ key, part, example }) =>
      fieldsOf(example)
        .filter(([, v]) => typeof v === 'number' && Math.abs(v) > 1e12)
        .map(([f, v]) => `${key} ${part} ${f}=${v}`),
    )
    expect(huge).toEqual([])
  })

  it('fields named in the table of examples show its value wherever their schema takes it (never "")', () => {
    const examples = viewerExamples()
    expect(examples.length).toBeGreaterThan(300)
    const empty = examples.flatMap(({ key, part, example }) => fieldsOf(example).filter(([f, v]) => f in EXAMPLES && v === '').map(([f]) => `${key} ${part} ${f}`))
    expect(empty).toEqual([])
    const request = examples.find((e) => e.key === 'PATCH /api/projects/{slug}' && e.part === 'request')!.example
    expect(request).toMatchObject({ name: 'Moon Lander', slug: 'moon-lander', website_url: 'https://moonlander.example' })
    const comment = examples.find((e) => e.key === 'POST /api/projects/{slug}/bugs/{number}/comments' && e.part === 'request')!.example
    expect(comment).toMatchObject({ body: EXAMPLES.body })
  })

  it('path parameters show a slug and a report number', () => {
    const params = doc.paths['/api/projects/{slug}/bugs/{number}'].get.parameters as { name: string; schema: Record<string, unknown> }[]
    expect(Object.fromEntries(params.map((p) => [p.name, p.schema.examples]))).toMatchObject({ slug: ['moon-lander'], number: ['42'] })
  })
})
