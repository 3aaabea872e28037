import { describe, expect, it } from 'vitest'
import { inviteLink, overridesFor, permissionsEditable } from './matrix'

describe('overridesFor', () => {
  const defaults = { 'bugs.view': true, 'bugs.delete': false, 'project.settings': false }
  it('is empty when the wanted permissions are the defaults', () => {
    expect(overridesFor({ ...defaults }, defaults)).toEqual({})
  })
  it('keeps only the keys that differ, both ways', () => {
    expect(overridesFor({ 'bugs.view': false, 'bugs.delete': true, 'project.settings': false }, defaults)).toEqual({ 'bugs.view': false, 'bugs.delete': true })
  })
  it('treats a key missing from the defaults as off', () => {
    expect(overridesFor({ 'team.invite': true, 'billing.manage': false }, defaults)).toEqual({ 'team.invite': true })
  })
})

describe('permissionsEditable', () => {
  it.each([
    ['owner', 'owner', true, /owner always/],
    ['admin', 'member', false, /Edit permissions/],
    ['admin', 'admin', true, /Only the account owner/],
    ['owner', 'admin', true, undefined],
    ['admin', 'member', true, undefined],
  ] as const)('%s editing %s (permission %s)', (actor, target, has, want) => {
    const r = permissionsEditable(actor, target, has)
    if (want === undefined) expect(r).toBeUndefined()
    else expect(r).toMatch(want)
  })
})

  it('never lets anyone edit their own permissions, not even an admin holding the permission', () => {
    expect(permissionsEditable('admin', 'admin', true, true)).toMatch(/their own permissions/)
    expect(permissionsEditable('member', 'member', true, true)).toMatch(/their own permissions/)
    expect(permissionsEditable('member', 'member', true, false)).toBeUndefined()
  })

describe('inviteLink', () => {
  it('points at /invite with the token encoded', () => {
    expect(inviteLink('https://gb.example', 'a+b/c')).toBe('https://gb.example/invite?token=a%2Bb%2Fc')
  })
})
