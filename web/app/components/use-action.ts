import { useState } from 'preact/hooks'
import { messageOf } from '../api/client'
import { toast } from './Toast'

export type ActionState<A extends unknown[]> = {
  busy: boolean
  error: string | null
  /** For checks made before `run` (a message of their own) and for clearing the message when a dialog reopens. */
  setError: (message: string | null) => void
  /** Busy on, error cleared, the action awaited, its failure's message kept; true when it succeeded. */
  run: (...args: A) => Promise<boolean>
  /** A form's `onSubmit`: no page load, then `run()`; only for actions that take no arguments. */
  onSubmit: [] extends A ? (e: Event) => void : never
}

/**
 * The busy flag and error message of one form or button, so that screens do not each repeat the same
 * try/catch/finally. With `toastErrors` a failure is shown as an error toast instead of kept in `error`.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => unknown, opts: { toastErrors?: boolean } = {}): ActionState<A> {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (...args: A) => {
    setBusy(true)
    setError(null)
    try {
      await action(...args)
      return true
    } catch (err) {
      if (opts.toastErrors) toast(messageOf(err), 'error')
      else setError(messageOf(err))
      return false
    } finally {
      setBusy(false)
    }
  }
  const onSubmit = (e: Event) => {
    e.preventDefault()
    void (run as () => Promise<boolean>)()
  }
  return { busy, error, setError, run, onSubmit: onSubmit as ActionState<A>['onSubmit'] }
}
