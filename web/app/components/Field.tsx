import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'preact'
import { useId } from 'preact/hooks'

type FieldShell = { label: ComponentChildren; hint?: ComponentChildren; error?: string | null }

/** Label, control, hint and error wired together (`for`/`id`, `aria-describedby`, `aria-invalid`). */
export function Field({ label, hint, error, children }: FieldShell & { children: (ids: { id: string; describedBy?: string; invalid?: boolean }) => ComponentChildren }) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errId = error ? `${id}-err` : undefined
  const describedBy = [hintId, errId].filter(Boolean).join(' ') || undefined
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) || undefined })}
      {hint && (
        <p class="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={errId} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

/** A form's failure message (e.g. the server's answer to a save), announced; nothing when there is none. */
export function FormError({ error, style }: { error: string | null | undefined; style?: string }) {
  return error ? (
    <p class="form-error" role="alert" style={style}>
      {error}
    </p>
  ) : null
}

type InputProps = FieldShell & Omit<InputHTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onChange'> & { value: string; onValue: (v: string) => void }

/** A labelled text input (`type` email, password, url, number, color… as needed). */
export function TextField({ label, hint, error, value, onValue, ...rest }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input id={id} aria-describedby={describedBy} aria-invalid={invalid} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...(rest as Record<string, unknown>)} />
      )}
    </Field>
  )
}

type AreaProps = FieldShell & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'label' | 'value' | 'onChange'> & { value: string; onValue: (v: string) => void }

/** A labelled multi-line text box. */
export function TextArea({ label, hint, error, value, onValue, ...rest }: AreaProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...(rest as Record<string, unknown>)} />
      )}
    </Field>
  )
}

export type Option = { value: string; label: string; disabled?: boolean }
type SelectProps = FieldShell & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'label' | 'value' | 'onChange'> & { value: string; onValue: (v: string) => void; options: Option[] }

/** A labelled native <select>. */
export function Select({ label, hint, error, value, onValue, options, ...rest }: SelectProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid} value={value} onChange={(e) => onValue(e.currentTarget.value)} {...(rest as Record<string, unknown>)}>
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.disabled}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** A labelled checkbox (the label sits after the box and is clickable). */
export function Checkbox({ label, hint, checked, onChecked, disabled, title }: { label: ComponentChildren; hint?: ComponentChildren; checked: boolean; onChecked: (v: boolean) => void; disabled?: boolean; title?: string }) {
  const id = useId()
  return (
    <div class="check" title={title}>
      <input type="checkbox" id={id} checked={checked} disabled={disabled} onChange={(e) => onChecked(e.currentTarget.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label for={id}>{label}</label>
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}
