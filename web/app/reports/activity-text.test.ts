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
    [e('updated', 'due_date', null, '2026-12-05T23:59:59.999Z'), 'set the due date to 5 Dec 2026'],
    [e('updated', 'due_date', '2026-12-05T23:59:59.999Z', '2027-01-10T23:59:59.999Z'), 'moved the due date from 5 Dec 2026 to 10 Jan 2027'],
    [e('updated', 'due_date', '2026-12-05T23:59:59.999Z', null), 'cleared the due date'],
    [e('updated', 'custom:Severity', null, 'S1'), 'set Severity to “S1”'],
    [e('updated', 'custom:Severity', 'S1', null), 'cleared Severity'],
    [e('merged', null, null, '[3,4,9]'), 'merged #3, #4 and #9 into this report'],
    [e('merged', null, null, '[3]'), 'merged #3 into this report'],
    [e('merged_into', null, null, '5'), 'merged this report into #5'],
    [e('regressed', null, '1.2.0', '1.3.0'), 'reopened it as a regression: seen again in 1.3.0 after the fix in 1.2.0'],
    [e('regressed', null, null, null), 'reopened it as a regression'],
    [e('feedback', null, null, '12'), 'received player feedback in report #12'],
    [e('symbolicated', null, null, 'test_app.pdb'), 'symbolicated it after symbols for test_app.pdb were uploaded'],
    [e('sla_breached', 'resolve', null, '2026-12-05T14:00:00.000Z'), 'missed the resolution SLA (due 5 Dec 2026, 14:00 UTC)'],
    [e('sla_breached', 'response', null, '2026-12-05T14:00:00.000Z'), 'missed the first-response SLA (due 5 Dec 2026, 14:00 UTC)'],
    [e('dependency_added', 'blocks', null, '#4'), 'marked it as blocking #4'],
    [e('dependency_added', 'blocked_by', null, '#2'), 'marked it as blocked by #2'],
    [e('dependency_removed', 'blocked_by', '#2', null), 'removed that it is blocked by #2'],
    [e('something_new', 'x', null, 'y'), 'something new x y'],
    // Issue 29: no raw field names.
    [e('updated', 'published', 'false', 'true'), 'published it on the public tracker'],
    [e('updated', 'published', 'true', 'false'), 'took it off the public tracker'],
    [e('updated', 'on_roadmap', 'false', 'true'), 'put it on the roadmap'],
    [e('updated', 'on_roadmap', 'true', 'false'), 'took it off the roadmap'],
    [e('updated', 'game_version', '1.2.0', '1.3.0'), 'changed game version from “1.2.0” to “1.3.0”'],
    [e('something_new', 'steps_to_reproduce', null, 'y'), 'something new steps to reproduce y'],
  ])('%o', (entry, text) => {
    expect(describeActivity(entry, userName)).toBe(text)
  })
})
