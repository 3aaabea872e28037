/** The roles an owner or admin gives (the owner's is never given). */
export const ROLE_OPTIONS = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
]
