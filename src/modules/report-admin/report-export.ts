import type { Seam } from '../../db/client'
import { createCustomFieldsRepository, type Field } from '../workflow/custom-fields.repository'
import { csvRow } from '../reports/csv'
import { createReportsRepository } from '../reports/reports.repository'
import type { Priority, Status } from '../reports/reports.types'

/** Rows read per chunk: memory stays constant whatever the project's size. */
export const EXPORT_CHUNK = 1000

const HEADER = [
  'report_number',
  'title',
  'description',
  'status',
  'priority',
  'category',
  'platform',
  'game_version',
  'error_type',
  'source',
  'assigned_to',
  'upvotes',
  'occurrences',
  'occurrence_count',
  'player_count',
  'first_seen',
  'last_seen',
  'first_version',
  'last_version',
  'reporter_name',
  'created_at',
  'updated_at',
]

/** A custom field value as one CSV cell: lists joined with "; ", empty when unset. */
const csvValue = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join('; ') : String(v))

/**
 * The project's live reports as a CSV stream, oldest first: each pull reads the next keyset chunk
 * (seq > last seen), so a 1M-report export never holds more than one chunk in memory.
 */
export function exportReportsCsv(db: Seam, projectId: string, filters: { status?: Status; priority?: Priority }): ReadableStream<Uint8Array> {
  const reports = createReportsRepository({ db })
  const customFields = createCustomFieldsRepository({ db })
  // Custom fields follow the fixed columns, one column per definition, named after the field (read by the first pull).
  let fields: Field[] | null = null
  const encoder = new TextEncoder()
  let after = 0
  let headerSent = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      fields ??= await customFields.list(projectId)
      let out = headerSent ? '' : csvRow([...HEADER, ...fields.map((f) => f.name)])
      headerSent = true
      const rows = await reports.exportChunk(projectId, { after, status: filters.status, priority: filters.priority }, EXPORT_CHUNK)
      const custom = fields.length ? await customFields.valuesOfReports(rows.map((r) => r.id)) : null
      for (const r of rows) {
        const values = custom?.get(r.id)
        out += csvRow([
          r.reportNumber,
          r.title,
          r.description,
          r.status,
          r.priority,
          r.category,
          r.platform,
          r.gameVersion,
          r.errorType,
          r.source,
          r.assignedTo,
          r.upvotes,
          r.occurrences,
          r.occurrences,
          r.playerCount,
          (r.firstSeen ?? r.createdAt).toISOString(),
          (r.lastSeen ?? r.createdAt).toISOString(),
          r.firstVersion,
          r.lastVersion,
          r.reporterName,
          r.createdAt.toISOString(),
          r.updatedAt.toISOString(),
          ...fields!.map((f) => csvValue(values?.get(f.id))),
        ])
      }
      if (out) controller.enqueue(encoder.encode(out))
      if (rows.length < EXPORT_CHUNK) controller.close()
      else after = rows.at(-1)!.seq
    },
  })
}
