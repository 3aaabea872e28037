import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render } from 'preact-render-to-string'
import { clientEnv } from '../api/client'
import { DeleteConfirm } from './DeleteConfirm'
import { toasts } from './Toast'

// There is no DOM to click the confirm button in, so the ConfirmDialog it renders is wrapped to keep its props:
// calling `onConfirm` is what that button does.
const seen = vi.hoisted(() => ({ confirm: null as null | { onConfirm: () => Promise<void> | void } }))
vi.mock('./Dialog', async (original) => {
  const real = await original<typeof import('./Dialog')>()
  return {
    ...real,
    ConfirmDialog: (props: Parameters<typeof real.ConfirmDialog>[0]) => {
      seen.confirm = props
      return real.ConfirmDialog(props)
    },
  }
})

type Hook = { id: string; url: string }
const hook: Hook = { id: 'wh/1', url: 'https://example.com/hooks' }
let calls: { url: string; method: string }[] = []
let answer: () => Response
const original = { ...clientEnv }

beforeEach(() => {
  calls = []
  answer = () => Response.json({ ok: true, data: { message: 'Webhook deleted' } })
  clientEnv.fetch = async (url, init) => {
    calls.push({ url, method: init.method! })
    return answer()
  }
})
afterEach(() => Object.assign(clientEnv, original))

function view(item: Hook | null, onDeleted: () => unknown = () => {}) {
  return render(
    <DeleteConfirm
      item={item}
      collection="/projects/mygame/webhooks/generic"
      title="Delete this webhook?"
      message={<>Events stop being sent to {item?.url}.</>}
      confirmLabel="Delete webhook"
      deleted="Webhook deleted"
      onClose={() => {}}
      onDeleted={onDeleted}
    />,
  )
}

describe('DeleteConfirm', () => {
  it('is closed until a row is picked, then names it', () => {
    expect(view(null)).not.toContain('Delete this webhook?')
    const html = view(hook)
    expect(html).toContain('<h2 id=')
    expect(html).toContain('Delete this webhook?</h2>')
    expect(html).toContain('Events stop being sent to https://example.com/hooks.')
    expect(html).toMatch(/<button type="button" class="btn btn-danger">Delete webhook<\/button>/)
  })

  it('deletes the row at its own path, toasts, and stays busy until the list has reloaded', async () => {
    const order: string[] = []
    let release = () => {}
    const reload = new Promise<void>((resolve) => (release = resolve))
    let finished = false
    view(hook, () => {
      order.push(`reload after ${calls.length} request`)
      return reload
    })
    const confirming = seen.confirm!.onConfirm()!.then(() => (finished = true))
    await vi.waitFor(() => expect(order).toEqual(['reload after 1 request']))
    expect(calls).toEqual([{ url: '/api/projects/mygame/webhooks/generic/wh%2F1', method: 'DELETE' }])
    expect(toasts.value.at(-1)).toMatchObject({ message: 'Webhook deleted', tone: 'success' })
    await new Promise((r) => setTimeout(r, 10))
    expect(finished).toBe(false)
    release()
    await confirming
    expect(finished).toBe(true)
  })

  it('lets a refusal through to the dialog (which shows it) without a toast or a reload', async () => {
    answer = () => Response.json({ ok: false, error: 'You need the “Webhooks” permission' }, { status: 403 })
    const onDeleted = vi.fn()
    const before = toasts.value.length
    view(hook, onDeleted)
    await expect(seen.confirm!.onConfirm()).rejects.toThrow('You need the “Webhooks” permission')
    expect(toasts.value.length).toBe(before)
    expect(onDeleted).not.toHaveBeenCalled()
  })
})
