import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { customFields, customFieldValues } from './workflow.table'

export type Field = typeof customFields.$inferSelect

const fieldOf = (projectId: string, fieldId: string) => and(eq(customFields.id, fieldId), eq(customFields.projectId, projectId))
const valueOf = (reportId: string, fieldId: string) => and(eq(customFieldValues.reportId, reportId), eq(customFieldValues.fieldId, fieldId))

/** Every read and write of custom_fields and custom_field_values, as async functions over the database seam. */
export function createCustomFieldsRepository({ db }: { db: Seam }) {
  return {
    /** The project's definitions, oldest first (the order forms show them in). */
    list: (projectId: string) => db.read((q) => q.select().from(customFields).where(eq(customFields.projectId, projectId)).orderBy(asc(customFields.createdAt), asc(customFields.id))),

    /** One definition of the project, or undefined. */
    find: async (projectId: string, fieldId: string): Promise<Field | undefined> => (await db.read((q) => q.select().from(customFields).where(fieldOf(projectId, fieldId)).limit(1)))[0],

    /** Whether the project has a field of this name, case aside. */
    nameTaken: async (projectId: string, name: string): Promise<boolean> => {
      const rows = await db.read((q) => q.select({ id: customFields.id }).from(customFields).where(and(eq(customFields.projectId, projectId), eq(sql`lower(${customFields.name})`, name.toLowerCase()))).limit(1))
      return rows.length > 0
    },

    insert: async (row: typeof customFields.$inferInsert): Promise<Field> => (await db.write((q) => q.insert(customFields).values(row).returning()))[0]!,

    /** Deletes a definition; the foreign key takes its values with it. */
    remove: (fieldId: string) => db.write((q) => q.delete(customFields).where(eq(customFields.id, fieldId))),

    /** A report's value of one field, or null when unset. */
    valueOf: async (reportId: string, fieldId: string): Promise<unknown> => (await db.read((q) => q.select({ value: customFieldValues.value }).from(customFieldValues).where(valueOf(reportId, fieldId)).limit(1)))[0]?.value ?? null,

    /** Values of many reports at once, 500 ids a query: report id → field id → value. */
    valuesOfReports: async (reportIds: string[]): Promise<Map<string, Map<string, unknown>>> => {
      const out = new Map<string, Map<string, unknown>>()
      for (let i = 0; i < reportIds.length; i += 500) {
        const rows = await db.read((q) => q.select().from(customFieldValues).where(inArray(customFieldValues.reportId, reportIds.slice(i, i + 500))))
        for (const r of rows) {
          let m = out.get(r.reportId)
          if (!m) out.set(r.reportId, (m = new Map()))
          m.set(r.fieldId, r.value)
        }
      }
      return out
    },

    /** A report's values as `{field_id, name, field_type, value}`, in definition order (null where unset). */
    reportValues: async (projectId: string, reportId: string) => {
      const [fields, rows] = await Promise.all([
        db.read((q) => q.select().from(customFields).where(eq(customFields.projectId, projectId)).orderBy(asc(customFields.createdAt), asc(customFields.id))),
        db.read((q) => q.select({ fieldId: customFieldValues.fieldId, value: customFieldValues.value }).from(customFieldValues).where(eq(customFieldValues.reportId, reportId))),
      ])
      const values = new Map(rows.map((v) => [v.fieldId, v.value]))
      return fields.map((f) => ({ field_id: f.id, name: f.name, field_type: f.fieldType, value: values.get(f.id) ?? null }))
    },

    /** Sets a report's values of these fields (null clears one); `text_value` mirrors select values for the list filter. */
    write: (reportId: string, values: (readonly [Field, unknown])[], now: Date) =>
      db.write(async (q) => {
        for (const [field, value] of values) {
          if (value === null) {
            await q.delete(customFieldValues).where(valueOf(reportId, field.id))
            continue
          }
          const textValue = field.fieldType === 'select' ? (value as string) : null
          await q
            .insert(customFieldValues)
            .values({ reportId, fieldId: field.id, value, textValue, updatedAt: now })
            .onConflictDoUpdate({ target: [customFieldValues.reportId, customFieldValues.fieldId], set: { value, textValue, updatedAt: now } })
        }
      }),
  }
}
