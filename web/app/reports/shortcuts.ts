/** The subset of a KeyboardEvent the dispatcher reads, so it can be driven without a DOM. */
export interface KeyEventLike {
  key: string
  ctrlKey?: boolean
  metaKey?: boolean
  altKey?: boolean
  isComposing?: boolean
  defaultPrevented?: boolean
  target?: unknown
  preventDefault?: () => void
}

/** One shortcut: the keys that trigger it (as `KeyboardEvent.key`) and what the help dialog says. */
export interface Shortcut<A extends string> {
  action: A
  keys: readonly string[]
  description: string
}

export type ListAction = 'next' | 'previous' | 'select' | 'open' | 'search' | 'status' | 'assign' | 'label' | 'help'

/** The report list's shortcuts, in the order the help dialog lists them. */
export const LIST_SHORTCUTS: readonly Shortcut<ListAction>[] = [
  { action: 'next', keys: ['j'], description: 'Move to the next report' },
  { action: 'previous', keys: ['k'], description: 'Move to the previous report' },
  { action: 'select', keys: ['x'], description: 'Select or unselect the current report' },
  { action: 'open', keys: ['o', 'Enter'], description: 'Open the current report' },
  { action: 'search', keys: ['/'], description: 'Focus the search box' },
  { action: 'status', keys: ['e'], description: 'Change the status of the current or selected reports' },
  { action: 'assign', keys: ['a'], description: 'Assign the current or selected reports' },
  { action: 'label', keys: ['l'], description: 'Label the current report' },
  { action: 'help', keys: ['?'], description: 'Show these shortcuts' },
]

export type ReportAction = 'next' | 'previous' | 'back' | 'help'

/** The report page's shortcuts: walk the list it was opened from without going back to it. */
export const REPORT_SHORTCUTS: readonly Shortcut<ReportAction>[] = [
  { action: 'next', keys: ['j'], description: 'Open the next report of the list' },
  { action: 'previous', keys: ['k'], description: 'Open the previous report of the list' },
  { action: 'back', keys: ['u'], description: 'Back to the list' },
  { action: 'help', keys: ['?'], description: 'Show these shortcuts' },
]

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week'])

/** Whether keys pressed in `target` are the user's typing (inputs, text areas, selects, editable content). */
export function isTypingTarget(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false
  const el = target as { tagName?: unknown; type?: unknown; isContentEditable?: unknown; getAttribute?: (n: string) => string | null }
  if (el.isContentEditable === true) return true
  const tag = typeof el.tagName === 'string' ? el.tagName.toUpperCase() : ''
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag === 'INPUT') {
    const type = (typeof el.type === 'string' ? el.type : (el.getAttribute?.('type') ?? '')).toLowerCase()
    return TEXT_INPUT_TYPES.has(type)
  }
  return false
}

// Enter on a focused link or button already does what the element says; the shortcut must not do it twice.
const ACTIVATES_ON_ENTER = new Set(['A', 'BUTTON', 'SUMMARY', 'INPUT'])

/**
 * A keydown handler that runs the bound action for a shortcut key and tells whether it did. Keys
 * typed into an input, chorded with Ctrl/Meta/Alt, or already handled are left alone.
 */
export function createShortcutDispatcher<A extends string>(shortcuts: readonly Shortcut<A>[], handlers: Partial<Record<A, () => void>>) {
  const byKey = new Map<string, A>()
  for (const s of shortcuts) for (const k of s.keys) byKey.set(k, s.action)
  return (event: KeyEventLike): boolean => {
    if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return false
    if (isTypingTarget(event.target)) return false
    const action = byKey.get(event.key)
    if (action === undefined) return false
    if (event.key === 'Enter') {
      const tag = (event.target as { tagName?: unknown } | undefined)?.tagName
      if (typeof tag === 'string' && ACTIVATES_ON_ENTER.has(tag.toUpperCase())) return false
    }
    const handler = handlers[action]
    if (!handler) return false
    event.preventDefault?.()
    handler()
    return true
  }
}

/** "o or Enter": the keys of a shortcut as the help dialog reads them. */
export const describeKeys = (keys: readonly string[]): string => keys.join(' or ')
