import { describe, expect, it } from 'vitest'
import { featureOffReason } from './plan-words'

describe('featureOffReason', () => {
  it('names the plan only when billing is configured', () => {
    expect(featureOffReason({ billing: true, feature: 'Jira', plan: 'Pro', current: 'Free' })).toBe('Jira needs the Pro plan or higher (this account is on Free).')
    const without = featureOffReason({ billing: false, feature: 'Jira', plan: 'Pro', current: 'Free' })
    expect(without).toBe("This account does not have Jira: the server's operator can add it with glitchbox admin set-plan.")
    expect(without).not.toMatch(/\b(Pro|Free|tier)\b/)
  })
})
