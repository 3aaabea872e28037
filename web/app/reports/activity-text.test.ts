import { describe, expect, it } from 'vitest'
import { describeActivity } from './activity-text'

const names: Record<string, string> = { u1: 'Ada' }
const userName = (id: string) => names[id] ?? 'a former member'
const e = (action: string, field: string | null = null, old_value: string | null = null, new_value: string | null = null) => ({ action, field, old_value, new_value })

describe('describeActivity', () => {
  it.each([
    [e('created'), 'filed the report'],
    [e('updated', 'status', 'open', 'wont_fix'), "changed status from Open to Won't fix"],
    [e('updated', 'priority', 'medium', 'critical'), 'changed priority from Medium to Critical'],
    [e('updated', 'assigned_to', null, 'u1'), 'assigned it to Ada'],
    [e('updated', 'assigned_to', 'u1', 'u9'), 'assigned it to a former member'],
    [e('updated', 'assigned_to', 'u1', null), 'unassigned it'],
    [e('updated', 'is_private', 'false', 'true'), 'made it private'],
    [e('updated', 'title', 'Crash', 'Crash on load'), 'changed title from “Crash” to “Crash on load”'],
    [e('updated', 'description', 'a', 'b'), 'edited the description'],
    [e('commented', null, null, 'internal'), 'added an internal comment'],
    [e('commented', null, null, 'public'), 'commented'],
    [e('labeled', 'labels', null, 'regression'), 'added the label “regression”'],
    [e('attached', 'attachments', null, 'log.txt'), 'attached log.txt'],
    [e('split', null, null, '42'), 'split occurrences into report #42'],
    [e('something_new', 'x', null, 'y'), 'something new x y'],
  ])('%o', (entry, text) => {
    expect(describeActivity(entry, userName)).toBe(text)
  })
})
