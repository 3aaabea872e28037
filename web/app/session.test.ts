import { afterEach, describe, expect, it } from 'vitest'
import { can, deniedReason, permissions } from './session'
import { slugFromPath } from './layout/Shell'

afterEach(() => {
  permissions.value = undefined
})

describe('permissions', () => {
  it('denies everything while loading, with a loading reason', () => {
    expect(can('bugs.view')).toBe(false)
    expect(deniedReason('bugs.view')).toMatch(/Loading/)
  })
  it('allows what the member holds and names what they lack', () => {
    permissions.value = { role: 'member', permissions: { 'bugs.view': true, 'webhooks.manage': false }, project_access: 'all' }
    expect(can('bugs.view')).toBe(true)
    expect(deniedReason('bugs.view')).toBeUndefined()
    expect(can('webhooks.manage')).toBe(false)
    expect(deniedReason('webhooks.manage')).toBe('You need the “Webhooks” permission: ask an owner or admin of the account.')
    expect(deniedReason('billing.manage')).toMatch(/“Billing”/)
  })
})

describe('slugFromPath', () => {
  it.each([
    ['/projects/abc-game/settings/general', 'abc-game'],
    ['/projects/caf%C3%A9', 'café'],
    ['/projects/new', null],
    ['/team', null],
    ['/', null],
  ])('%s → %s', (path, slug) => expect(slugFromPath(path)).toBe(slug))
})
