import type { AppDeps } from '../../app-deps'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { liveReport } from '../reports/project-reports'
import { createCustomFieldsRepository, type Field } from './custom-fields.repository'
import type { CreateCustomFieldBody } from './workflow.schemas'

type Deps = Pick<AppDeps, 'db' | 'clock'>
interface Ctx {
  project: { id: string; accountId: string }
  userId: string
}

const SELECTS = ['select', 'multiselect']

const fieldsOf = (deps: Pick<AppDeps, 'db'>) => createCustomFieldsRepository({ db: deps.db })

/** A definition as the API shows it. */
export const fieldView = (f: Field) => ({ id: f.id, name: f.name, field_type: f.fieldType, options: f.options, is_required: f.isRequired, created_at: f.createdAt.toISOString() })

/** `GET /custom-fields`: the project's definitions, oldest first (the order forms show them in). */
export async function listFields(deps: Pick<AppDeps, 'db'>, projectId: string) {
  return (await fieldsOf(deps).list(projectId)).map(fieldView)
}

/** `POST /custom-fields`: options are required for the select types and refused for the others; names are unique per project. */
export async function createField(deps: Deps, ctx: Ctx, body: CreateCustomFieldBody) {
  const options = body.options ?? []
  if (SELECTS.includes(body.field_type) && options.length === 0) throw badRequest(`options: a ${body.field_type} field needs at least one option`)
  if (!SELECTS.includes(body.field_type) && options.length > 0) throw badRequest(`options: only select and multiselect fields take options`)
  if (new Set(options).size !== options.length) throw badRequest('options: each option must be different')
  return deps.db.write(async (tx) => {
    if (await fieldsOf(deps).nameTaken(ctx.project.id, body.name)) throw conflict(`a custom field named "${body.name}" already exists`)
    const now = deps.clock.now()
    const row = await fieldsOf(deps).insert({ id: newId(), projectId: ctx.project.id, name: body.name, fieldType: body.field_type, options, isRequired: body.is_required ?? false, createdAt: now })
    await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'custom_field.created', target: row.id, details: { name: row.name, field_type: row.fieldType } })
    return fieldView(row)
  })
}

/** `DELETE /custom-fields/{id}`: the values of the field go with it. */
export async function deleteField(deps: Deps, ctx: Ctx, fieldId: string): Promise<void> {
  await deps.db.write(async (tx) => {
    const field = await fieldsOf(deps).find(ctx.project.id, fieldId)
    if (!field) throw notFound('custom field not found')
    await fieldsOf(deps).remove(fieldId)
    await recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'custom_field.deleted', target: fieldId, details: { name: field.name } })
  })
}

/** `value` checked against `field`'s type and options; throws 400 naming the field. Null means "no value". */
export function checkValue(field: Field, value: unknown): unknown {
  const fail = (why: string): never => {
    throw badRequest(`${field.name}: ${why}`)
  }
  if (value === null || value === undefined || value === '') {
    if (field.isRequired) fail('a value is required')
    return null
  }
  switch (field.fieldType) {
    case 'text':
      if (typeof value !== 'string' || value.length > 5_000) fail('expected text of at most 5,000 characters')
      return value
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail('expected a number')
      return value
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) fail('expected a date like 2026-12-31')
      return value
    case 'checkbox':
      if (typeof value !== 'boolean') fail('expected true or false')
      return value
    case 'url':
      if (typeof value !== 'string' || value.length > 2_000 || !/^https?:\/\/[^\s]+$/i.test(value) || !URL.canParse(value)) fail('expected an http or https URL')
      return value
    case 'select':
      if (typeof value !== 'string' || !field.options.includes(value)) fail(`expected one of ${field.options.join(', ')}`)
      return value
    case 'multiselect': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !field.options.includes(v))) fail(`expected a list of ${field.options.join(', ')}`)
      const list = [...new Set(value as string[])]
      if (field.isRequired && list.length === 0) fail('a value is required')
      return list
    }
  }
}

/** `GET /bugs/{number}/custom-fields`. */
export async function readValues(deps: Pick<AppDeps, 'db'>, projectId: string, rawNumber: string) {
  const report = await liveReport(deps.db, projectId, rawNumber)
  return fieldsOf(deps).reportValues(projectId, report.id)
}

/** `POST /bugs/{number}/custom-fields`: sets (or with null clears) one value; logs the change. */
export async function setValue(deps: Deps, ctx: Ctx, rawNumber: string, body: { field_id: string; value?: unknown }) {
  return deps.db.write(async (tx) => {
    const report = await liveReport(tx, ctx.project.id, rawNumber)
    const field = await fieldsOf(deps).find(ctx.project.id, body.field_id)
    if (!field) throw notFound('custom field not found')
    const value = checkValue(field, body.value)
    const before = await fieldsOf(deps).valueOf(report.id, field.id)
    const now = deps.clock.now()
    await fieldsOf(deps).write(report.id, [[field, value]], now)
    if (JSON.stringify(before) !== JSON.stringify(value)) {
      await recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'updated', field: `custom:${field.name}`, oldValue: before, newValue: value }])
    }
    return fieldsOf(deps).reportValues(ctx.project.id, report.id)
  })
}

/**
 * Checks the custom fields a team member sends with a new report (`custom_fields`: field id → value),
 * enforcing the required ones, and returns a writer for the created report (to await inside its write).
 */
export async function checkNewReportValues(deps: Pick<AppDeps, 'db'>, projectId: string, sent: Record<string, unknown> = {}) {
  const fields = await fieldsOf(deps).list(projectId)
  const byId = new Map(fields.map((f) => [f.id, f]))
  for (const id of Object.keys(sent)) if (!byId.has(id)) throw badRequest(`custom_fields: no custom field with id ${id.slice(0, 64)}`)
  const values = fields.map((f) => [f, checkValue(f, sent[f.id])] as const).filter(([, v]) => v !== null)
  return async (reportId: string, now: Date) => {
    if (values.length) await fieldsOf(deps).write(reportId, values, now)
  }
}
