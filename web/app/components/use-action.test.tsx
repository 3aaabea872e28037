import { describe, expect, it, vi } from 'vitest'
import { render } from 'preact-render-to-string'
import { ApiError } from '../api/client'
import { FormError } from './Field'
import { toasts } from './Toast'
import { useAction } from './use-action'

// There is no DOM here to mount a component in, so useState keeps its values in plain slots: calling the
// hook again is a re-render, and its answer is the state a screen would show at that moment.
const state = vi.hoisted(() => ({ slots: [] as unknown[], cursor: 0 }))
vi.mock('preact/hooks', async (original) => ({
  ...(await original<typeof import('preact/hooks')>()),
  useState: (initial: unknown) => {
    const i = state.cursor++
    if (!(i in state.slots)) state.slots[i] = initial
    return [state.slots[i], (v: unknown) => (state.slots[i] = typeof v === 'function' ? v(state.slots[i]) : v)]
  },
}))

/** Mounts the hook afresh and returns its re-render. */
function mount<A extends unknown[]>(...params: Parameters<typeof useAction<A>>) {
  state.slots = []
  return () => {
    state.cursor = 0
    return useAction(...params)
  }
}

/** An action that waits until the test lets it finish, failing with `failWith` when set. */
function gated() {
  const gate = { failWith: null as Error | null, release: () => {} }
  const action = () =>
    new Promise<void>((resolve, reject) => {
      gate.release = () => (gate.failWith ? reject(gate.failWith) : resolve())
    })
  return { gate, action }
}

describe('useAction', () => {
  it('is busy while the action runs and not after', async () => {
    const { gate, action } = gated()
    const view = mount(action)
    expect(view().busy).toBe(false)
    const done = view().run()
    expect(view().busy).toBe(true)
    gate.release()
    expect(await done).toBe(true)
    expect(view()).toMatchObject({ busy: false, error: null })
  })

  it('keeps the failure message for the form, and clears it when the retry starts', async () => {
    const { gate, action } = gated()
    const view = mount(action)
    gate.failWith = new ApiError(409, 'A webhook with this URL already exists')
    const first = view().run()
    gate.release()
    expect(await first).toBe(false)
    expect(view()).toMatchObject({ busy: false, error: 'A webhook with this URL already exists' })
    expect(render(<FormError error={view().error} />)).toBe('<p class="form-error" role="alert">A webhook with this URL already exists</p>')

    gate.failWith = null
    const retry = view().run()
    expect(view()).toMatchObject({ busy: true, error: null })
    expect(render(<FormError error={view().error} />)).toBe('')
    gate.release()
    expect(await retry).toBe(true)
    expect(view()).toMatchObject({ busy: false, error: null })
  })

  it('passes its arguments to the action', async () => {
    const seen: unknown[] = []
    const view = mount(async (reset: boolean, label: string) => void seen.push(reset, label))
    await view().run(true, 'defaults')
    expect(seen).toEqual([true, 'defaults'])
  })

  it('as a form handler, stops the page load and runs the action', async () => {
    const action = vi.fn(async () => {})
    const view = mount(action)
    const preventDefault = vi.fn()
    view().onSubmit({ preventDefault } as unknown as Event)
    expect(preventDefault).toHaveBeenCalledOnce()
    expect(view().busy).toBe(true)
    await vi.waitFor(() => expect(view().busy).toBe(false))
    expect(action).toHaveBeenCalledOnce()
  })

  it('with toastErrors, shows the failure as an error toast instead of keeping it', async () => {
    const view = mount(
      async () => {
        throw new ApiError(403, 'You need the “Edit reports” permission')
      },
      { toastErrors: true },
    )
    expect(await view().run()).toBe(false)
    expect(view()).toMatchObject({ busy: false, error: null })
    expect(toasts.value.at(-1)).toMatchObject({ message: 'You need the “Edit reports” permission', tone: 'error' })
  })
})

describe('FormError', () => {
  it('renders nothing without an error, and keeps the style it is given', () => {
    expect(render(<FormError error={null} />)).toBe('')
    expect(render(<FormError error="The two passwords differ" style="margin-top:0.75rem" />)).toBe('<p class="form-error" role="alert" style="margin-top:0.75rem">The two passwords differ</p>')
  })
})
