import { describe, expect, it, vi } from 'vitest'
import { render } from 'preact-render-to-string'
import { FormDialog } from './FormDialog'

describe('FormDialog', () => {
  it('builds no form while closed', () => {
    const form = vi.fn(() => <form />)
    const html = render(
      <FormDialog open={false} title="Add alert" onClose={() => {}} onDone={() => {}}>
        {form}
      </FormDialog>,
    )
    expect(form).not.toHaveBeenCalled()
    expect(html).toMatch(/^<dialog class="dialog" aria-labelledby="[^"]+"><\/dialog>$/)
  })

  it('shows the form under its title while open, wide when asked', () => {
    const html = render(
      <FormDialog open title="Edit changelog entry" wide onClose={() => {}} onDone={() => {}}>
        {() => <form class="stack" aria-label="Entry" />}
      </FormDialog>,
    )
    expect(html).toMatch(/^<dialog class="dialog dialog-wide"/)
    expect(html).toContain('Edit changelog entry</h2>')
    expect(html).toContain('<div class="dialog-content"><form class="stack" aria-label="Entry"></form></div>')
  })

  it('gives the form a done that closes the dialog, then reloads the list', () => {
    const order: string[] = []
    let done = () => {}
    render(
      <FormDialog open title="Add webhook" onClose={() => order.push('close')} onDone={() => order.push('reload')}>
        {(d) => {
          done = d
          return <form />
        }}
      </FormDialog>,
    )
    expect(order).toEqual([])
    done()
    expect(order).toEqual(['close', 'reload'])
  })
})
