import type { DbOrTx } from '../../db/client'
import { badRequest } from '../../http/errors'
import { fieldInProject } from './custom-fields.repository'

/**
 * A select field of the project by id, for the list filter `custom_field=<id>:<option>`; 400 otherwise.
 * Still synchronous: the reports list and the bulk and merge actions resolve their filter inside a
 * synchronous transaction.
 */
export function selectFieldFilter(db: DbOrTx, projectId: string, raw: string): { fieldId: string; option: string } {
  const sep = raw.indexOf(':')
  const fieldId = sep > 0 ? raw.slice(0, sep) : ''
  const option = sep > 0 ? raw.slice(sep + 1) : ''
  const field = fieldId ? fieldInProject(db, projectId, fieldId) : undefined
  if (!field || field.fieldType !== 'select') throw badRequest('custom_field: expected <select field id>:<option>')
  if (!field.options.includes(option)) throw badRequest(`custom_field: ${field.name} has no option "${option.slice(0, 100)}"`)
  return { fieldId, option }
}
