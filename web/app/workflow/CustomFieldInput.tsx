import { Checkbox, Field, Select, TextField } from '../components'
import type { CustomField } from './types'

/** The input for one custom field's value, by its type; `value` is the field's JSON value (null when unset). */
export function CustomFieldInput({ field, value, onValue, disabled }: { field: Pick<CustomField, 'name' | 'field_type' | 'options' | 'is_required'>; value: unknown; onValue: (v: unknown) => void; disabled?: boolean }) {
  const label = field.is_required ? `${field.name} (required)` : field.name
  const text = value === null || value === undefined ? '' : String(value)
  switch (field.field_type) {
    case 'checkbox':
      return <Checkbox label={label} checked={value === true} onChecked={onValue} disabled={disabled} />
    case 'number':
      return <TextField label={label} type="number" step="any" value={text} onValue={(v) => onValue(v === '' ? null : Number(v))} disabled={disabled} />
    case 'date':
      return <TextField label={label} type="date" value={text} onValue={(v) => onValue(v || null)} disabled={disabled} />
    case 'url':
      return <TextField label={label} type="url" value={text} onValue={(v) => onValue(v || null)} disabled={disabled} />
    case 'select':
      return <Select label={label} value={text} onValue={(v) => onValue(v || null)} disabled={disabled} options={[{ value: '', label: '—' }, ...(field.options ?? []).map((o) => ({ value: o, label: o }))]} />
    case 'multiselect': {
      const chosen = Array.isArray(value) ? (value as string[]) : []
      return (
        <Field label={label}>
          {({ id }) => (
            <select id={id} multiple disabled={disabled} onChange={(e) => onValue([...e.currentTarget.selectedOptions].map((o) => o.value))}>
              {(field.options ?? []).map((o) => (
                <option key={o} value={o} selected={chosen.includes(o)}>{o}</option>
              ))}
            </select>
          )}
        </Field>
      )
    }
    default:
      return <TextField label={label} value={text} onValue={(v) => onValue(v || null)} disabled={disabled} maxLength={5000} />
  }
}
