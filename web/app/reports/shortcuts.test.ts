import { describe, expect, it, vi } from 'vitest'
import { createShortcutDispatcher, describeKeys, isTypingTarget, LIST_SHORTCUTS, REPORT_SHORTCUTS, type KeyEventLike } from './shortcuts'

const setup = () => {
  const calls: string[] = []
  const handlers = Object.fromEntries(LIST_SHORTCUTS.map((s) => [s.action, () => calls.push(s.action)]))
  return { calls, dispatch: createShortcutDispatcher(LIST_SHORTCUTS, handlers) }
}
const body = { tagName: 'BODY' }

describe('list shortcut dispatcher', () => {
  it.each([
    ['j', 'next'],
    ['k', 'previous'],
    ['x', 'select'],
    ['o', 'open'],
    ['Enter', 'open'],
    ['/', 'search'],
    ['e', 'status'],
    ['a', 'assign'],
    ['l', 'label'],
    ['?', 'help'],
  ])('%s runs %s and prevents the default', (key, action) => {
    const { calls, dispatch } = setup()
    const preventDefault = vi.fn()
    expect(dispatch({ key, target: body, preventDefault })).toBe(true)
    expect(calls).toEqual([action])
    expect(preventDefault).toHaveBeenCalledOnce()
  })

  it.each<[string, KeyEventLike]>([
    ['typing in a text input', { key: 'j', target: { tagName: 'INPUT', type: 'text' } }],
    ['typing in a search input', { key: '/', target: { tagName: 'input', type: 'search' } }],
    ['typing in a textarea', { key: 'k', target: { tagName: 'TEXTAREA' } }],
    ['choosing in a select', { key: 'e', target: { tagName: 'SELECT' } }],
    ['typing in editable content', { key: 'x', target: { tagName: 'DIV', isContentEditable: true } }],
    ['Ctrl chord', { key: 'k', ctrlKey: true, target: body }],
    ['Meta chord', { key: 'l', metaKey: true, target: body }],
    ['Alt chord', { key: 'j', altKey: true, target: body }],
    ['IME composition', { key: 'j', isComposing: true, target: body }],
    ['already handled', { key: 'j', defaultPrevented: true, target: body }],
    ['an unbound key', { key: 'z', target: body }],
    ['upper-case J (Shift)', { key: 'J', target: body }],
    ['Enter on a focused link', { key: 'Enter', target: { tagName: 'A' } }],
    ['Enter on a focused button', { key: 'Enter', target: { tagName: 'BUTTON' } }],
  ])('ignores %s', (_name, event) => {
    const { calls, dispatch } = setup()
    expect(dispatch(event)).toBe(false)
    expect(calls).toEqual([])
  })

  it('still handles keys on a focused checkbox (not a text field)', () => {
    const { calls, dispatch } = setup()
    expect(dispatch({ key: 'x', target: { tagName: 'INPUT', type: 'checkbox' } })).toBe(true)
    expect(calls).toEqual(['select'])
  })

  it('leaves keys without a handler to the browser', () => {
    const dispatch = createShortcutDispatcher(LIST_SHORTCUTS, { next: () => {} })
    const preventDefault = vi.fn()
    expect(dispatch({ key: 'k', target: body, preventDefault })).toBe(false)
    expect(preventDefault).not.toHaveBeenCalled()
  })

  it('every shortcut of the brief is listed for the help dialog', () => {
    expect(LIST_SHORTCUTS.flatMap((s) => s.keys).sort()).toEqual(['/', 'Enter', '?', 'a', 'e', 'j', 'k', 'l', 'o', 'x'].sort())
    expect(describeKeys(['o', 'Enter'])).toBe('o or Enter')
  })

  it('isTypingTarget reads the type attribute when there is no property', () => {
    expect(isTypingTarget({ tagName: 'INPUT', getAttribute: () => 'email' })).toBe(true)
    expect(isTypingTarget({ tagName: 'INPUT', type: 'radio' })).toBe(false)
    expect(isTypingTarget(null)).toBe(false)
  })

  it('the report page walks the list with j/k, goes back with u and shows help with ?', () => {
    const calls: string[] = []
    const dispatch = createShortcutDispatcher(REPORT_SHORTCUTS, { next: () => calls.push('next'), previous: () => calls.push('previous'), back: () => calls.push('back'), help: () => calls.push('help') })
    for (const key of ['j', 'k', 'u', '?', 'x']) dispatch({ key, target: body })
    dispatch({ key: 'j', target: { tagName: 'TEXTAREA' } })
    expect(calls).toEqual(['next', 'previous', 'back', 'help'])
  })
})
