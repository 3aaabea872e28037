import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx, Tx } from '../../db/client'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { findLiveReport } from '../reports/reports.read'
import type { CreateCustomFieldBody } from './workflow.schemas'
import { customFields, customFieldValues } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type Field = typeof customFields.$inferSelect
interface Ctx {
  project: { id: string; accountId: string }
  userId: string
}

const SELECTS = ['select', 'multiselect']

const fieldView = (f: Field) => ({ id: f.id, name: f.name, field_type: f.fieldType, options: f.options, is_required: f.isRequired, created_at: f.createdAt.toISOString() })

/** `GET /custom-fields`: the project's definitions, oldest first (the order forms show them in). */
export function listFields(db: DbOrTx, projectId: string) {
  return db.select().from(customFields).where(eq(customFields.projectId, projectId)).orderBy(asc(customFields.createdAt), asc(customFields.id)).all()
}

/** `POST /custom-fields`: options are required for the select types and refused for the others; names are unique per project. */
export function createField(deps: Deps, ctx: Ctx, body: CreateCustomFieldBody) {
  const options = body.options ?? []
  if (SELECTS.includes(body.field_type) && options.length === 0) throw badRequest(`options: a ${body.field_type} field needs at least one option`)
  if (!SELECTS.includes(body.field_type) && options.length > 0) throw badRequest(`options: only select and multiselect fields take options`)
  if (new Set(options).size !== options.length) throw badRequest('options: each option must be different')
  return deps.db.transaction((tx) => {
    const taken = tx.select({ id: customFields.id }).from(customFields).where(and(eq(customFields.projectId, ctx.project.id), eq(sql`lower(${customFields.name})`, body.name.toLowerCase()))).get()
    if (taken) throw conflict(`a custom field named "${body.name}" already exists`)
    const now = deps.clock.now()
    const row = tx.insert(customFields).values({ id: newId(), projectId: ctx.project.id, name: body.name, fieldType: body.field_type, options, isRequired: body.is_required ?? false, createdAt: now }).returning().get()!
    recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'custom_field.created', target: row.id, details: { name: row.name, field_type: row.fieldType } })
    return fieldView(row)
  })
}

/** `DELETE /custom-fields/{id}`: the values of the field go with it. */
export function deleteField(deps: Deps, ctx: Ctx, fieldId: string): void {
  deps.db.transaction((tx) => {
    const field = tx.select().from(customFields).where(and(eq(customFields.id, fieldId), eq(customFields.projectId, ctx.project.id))).get()
    if (!field) throw notFound('custom field not found')
    tx.delete(customFields).where(eq(customFields.id, fieldId)).run()
    recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'custom_field.deleted', target: fieldId, details: { name: field.name } })
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

function writeValue(tx: Tx, reportId: string, field: Field, value: unknown, now: Date) {
  if (value === null) {
    tx.delete(customFieldValues).where(and(eq(customFieldValues.reportId, reportId), eq(customFieldValues.fieldId, field.id))).run()
    return
  }
  const textValue = field.fieldType === 'select' ? (value as string) : null
  tx.insert(customFieldValues)
    .values({ reportId, fieldId: field.id, value, textValue, updatedAt: now })
    .onConflictDoUpdate({ target: [customFieldValues.reportId, customFieldValues.fieldId], set: { value, textValue, updatedAt: now } })
    .run()
}

/** A report's values as `{field_id, name, field_type, value}`, in definition order (null where unset). */
export function valuesOf(db: DbOrTx, projectId: string, reportId: string) {
  const values = new Map(db.select().from(customFieldValues).where(eq(customFieldValues.reportId, reportId)).all().map((v) => [v.fieldId, v.value]))
  return listFields(db, projectId).map((f) => ({ field_id: f.id, name: f.name, field_type: f.fieldType, value: values.get(f.id) ?? null }))
}

/** Values of many reports at once (CSV export): report id → field id → value. */
export function valuesOfReports(db: DbOrTx, reportIds: string[]): Map<string, Map<string, unknown>> {
  const out = new Map<string, Map<string, unknown>>()
  for (let i = 0; i < reportIds.length; i += 500) {
    const rows = db.select().from(customFieldValues).where(inArray(customFieldValues.reportId, reportIds.slice(i, i + 500))).all()
    for (const r of rows) {
      let m = out.get(r.reportId)
      if (!m) out.set(r.reportId, (m = new Map()))
      m.set(r.fieldId, r.value)
    }
  }
  return out
}

/** `GET /bugs/{number}/custom-fields`. */
export function readValues(db: DbOrTx, projectId: string, rawNumber: string) {
  const report = findLiveReport(db, projectId, rawNumber)
  return valuesOf(db, projectId, report.id)
}

/** `POST /bugs/{number}/custom-fields`: sets (or with null clears) one value; logs the change. */
export function setValue(deps: Deps, ctx: Ctx, rawNumber: string, body: { field_id: string; value?: unknown }) {
  return deps.db.transaction((tx) => {
    const report = findLiveReport(tx, ctx.project.id, rawNumber)
    const field = tx.select().from(customFields).where(and(eq(customFields.id, body.field_id), eq(customFields.projectId, ctx.project.id))).get()
    if (!field) throw notFound('custom field not found')
    const value = checkValue(field, body.value)
    const before = tx.select({ value: customFieldValues.value }).from(customFieldValues).where(and(eq(customFieldValues.reportId, report.id), eq(customFieldValues.fieldId, field.id))).get()?.value ?? null
    const now = deps.clock.now()
    writeValue(tx, report.id, field, value, now)
    if (JSON.stringify(before) !== JSON.stringify(value)) {
      recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'updated', field: `custom:${field.name}`, oldValue: before, newValue: value }])
    }
    return valuesOf(tx, ctx.project.id, report.id)
  })
}

/**
 * Checks the custom fields a team member sends with a new report (`custom_fields`: field id → value),
 * enforcing the required ones, and returns a writer for the created report.
 */
export function checkNewReportValues(db: DbOrTx, projectId: string, sent: Record<string, unknown> = {}) {
  const fields = listFields(db, projectId)
  const byId = new Map(fields.map((f) => [f.id, f]))
  for (const id of Object.keys(sent)) if (!byId.has(id)) throw badRequest(`custom_fields: no custom field with id ${id.slice(0, 64)}`)
  const values = fields.map((f) => [f, checkValue(f, sent[f.id])] as const).filter(([, v]) => v !== null)
  return (tx: Tx, reportId: string, now: Date) => {
    for (const [f, v] of values) writeValue(tx, reportId, f, v, now)
  }
}

/** A select field of the project by id, for the list filter `custom_field=<id>:<option>`; 400 otherwise. */
export function selectFieldFilter(db: DbOrTx, projectId: string, raw: string): { fieldId: string; option: string } {
  const sep = raw.indexOf(':')
  const fieldId = sep > 0 ? raw.slice(0, sep) : ''
  const option = sep > 0 ? raw.slice(sep + 1) : ''
  const field = fieldId ? db.select().from(customFields).where(and(eq(customFields.id, fieldId), eq(customFields.projectId, projectId))).get() : undefined
  if (!field || field.fieldType !== 'select') throw badRequest('custom_field: expected <select field id>:<option>')
  if (!field.options.includes(option)) throw badRequest(`custom_field: ${field.name} has no option "${option.slice(0, 100)}"`)
  return { fieldId, option }
}
