import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import { createCustomFieldsRepository } from './custom-fields.repository'

/** A select field of the project by id, for the list filter `custom_field=<id>:<option>`; 400 otherwise. */
export async function selectFieldFilter(deps: Pick<AppDeps, 'db'>, projectId: string, raw: string): Promise<{ fieldId: string; option: string }> {
  const sep = raw.indexOf(':')
  const fieldId = sep > 0 ? raw.slice(0, sep) : ''
  const option = sep > 0 ? raw.slice(sep + 1) : ''
  const field = fieldId ? await createCustomFieldsRepository({ db: deps.db }).find(projectId, fieldId) : undefined
  if (!field || field.fieldType !== 'select') throw badRequest('custom_field: expected <select field id>:<option>')
  if (!field.options.includes(option)) throw badRequest(`custom_field: ${field.name} has no option "${option.slice(0, 100)}"`)
  return { fieldId, option }
}
