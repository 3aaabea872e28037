/** What the API says a member may see: `all` projects of the account, or a list of project ids. */
export type ProjectAccess = 'all' | string[]

/** The stored column (null: every project) as the API shows it. */
export const accessOf = (projectIds: string[] | null | undefined): ProjectAccess => projectIds ?? 'all'

/** The API value as stored: null for every project, else the distinct ids. */
export const storedAccess = (access: ProjectAccess): string[] | null => (access === 'all' ? null : [...new Set(access)])

/**
 * Whether a member whose membership lists `projectIds` may see `projectId`. Every check of the rule
 * goes through here: the project routes (auth.plugin.ts), listings, mails and assignment.
 */
export const canSeeProject = (projectIds: string[] | null | undefined, projectId: string): boolean => !projectIds || projectIds.includes(projectId)

/** `access` as a viewer limited to `viewerIds` may see it: ids of projects hidden from them are left out. */
export const accessSeenBy = (access: ProjectAccess, viewerIds: string[] | null | undefined): ProjectAccess =>
  access === 'all' || !viewerIds ? access : access.filter((id) => viewerIds.includes(id))
