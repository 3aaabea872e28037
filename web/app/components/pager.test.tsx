import { beforeEach, describe, expect, it, vi } from 'vitest'
import { render } from 'preact-render-to-string'
import type { VNode } from 'preact'
import { setQuery } from '../router'
import { Pager, pageCount } from './Pager'

vi.mock('../router', () => ({ setQuery: vi.fn() }))

beforeEach(() => vi.mocked(setQuery).mockClear())

/** The pager's two buttons as its render returns them (no DOM to click them in). */
function buttons(props: Parameters<typeof Pager>[0]) {
  const nav = Pager(props) as VNode<{ children: VNode<{ onClick: () => void; disabled: boolean }>[] }>
  const [prev, , next] = nav.props.children
  return { prev: prev!.props, next: next!.props }
}

describe('pageCount', () => {
  it.each([
    [0, 50, 1],
    [50, 50, 1],
    [51, 50, 2],
    [230, 50, 5],
  ])('%i rows at %i a page → %i pages', (total, per, want) => {
    expect(pageCount(total, per)).toBe(want)
  })
})

describe('Pager', () => {
  it('names its pages and says where the reader is', () => {
    expect(render(<Pager label="Player pages" page={2} pages={5} count="230 players" />)).toBe(
      '<nav class="pager" aria-label="Player pages">' +
        '<button type="button" class="btn btn-secondary btn-sm">Previous page</button>' +
        '<span class="small">Page 2 of 5 · 230 players</span>' +
        '<button type="button" class="btn btn-secondary btn-sm">Next page</button></nav>',
    )
  })

  it.each([
    [1, 1, true, true],
    [1, 3, true, false],
    [3, 3, false, true],
  ])('on page %i of %i: previous disabled %s, next disabled %s', (page, pages, prevOff, nextOff) => {
    const { prev, next } = buttons({ label: 'Audit log pages', page, pages, count: '120 entries' })
    expect([Boolean(prev.disabled), Boolean(next.disabled)]).toEqual([prevOff, nextOff])
  })

  it('moves through the URL, dropping the page query on page 1', () => {
    buttons({ label: 'Audit log pages', page: 3, pages: 5, count: '230 entries' }).next.onClick()
    expect(setQuery).toHaveBeenLastCalledWith({ page: 4 })
    buttons({ label: 'Audit log pages', page: 3, pages: 5, count: '230 entries' }).prev.onClick()
    expect(setQuery).toHaveBeenLastCalledWith({ page: 2 })
    buttons({ label: 'Audit log pages', page: 2, pages: 5, count: '230 entries' }).prev.onClick()
    expect(setQuery).toHaveBeenLastCalledWith({ page: null })
  })
})
