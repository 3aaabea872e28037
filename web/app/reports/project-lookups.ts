/** The project's labels, members and error types: read once per project visit and shared by the list and report screens. */
import { useEffect, useMemo } from 'preact/hooks'
import { createResource, type Resource } from '../api/resource'
import type { EffectivePermissions, Member, PermissionKey } from '../api/types'
import { missingPermission } from '../api/permission-names'
import type { ErrorTypeCount, FacetValues, Label } from './report-types'
import { reportsApi } from './reports-api'

export interface ProjectLookups {
  /** The member's permissions in the project's own account (the session's are those of the account they work in). */
  permissions: Resource<EffectivePermissions>
  labels: Resource<Label[]>
  members: Resource<Member[]>
  errorTypes: Resource<ErrorTypeCount[]>
  /** Game versions and platforms the occurrences came from (the list's version and platform filters). */
  facets: Resource<FacetValues>
}

const cache = new Map<string, ProjectLookups>()

/** The lookups of `slug`, loaded on first use; `reload` on one of them refreshes it for every screen. */
export function projectLookups(slug: string): ProjectLookups {
  let found = cache.get(slug)
  if (!found) {
    found = {
      permissions: createResource(() => reportsApi.permissions(slug)),
      labels: createResource(() => reportsApi.labels(slug)),
      members: createResource(async () => (await reportsApi.members(slug)).members),
      errorTypes: createResource(() => reportsApi.errorTypes(slug)),
      facets: createResource(() => reportsApi.facets(slug)),
    }
    cache.set(slug, found)
  }
  return found
}

/** `projectLookups` as a hook: starts the loads that have not run yet. */
export function useProjectLookups(slug: string): ProjectLookups {
  const lookups = useMemo(() => projectLookups(slug), [slug])
  useEffect(() => {
    for (const r of Object.values(lookups) as Resource<unknown>[]) if (r.data.value === undefined && !r.loading.value) void r.reload()
  }, [lookups])
  return lookups
}

/** A member's name for display (name, else email), or a fallback for someone no longer on the team. */
export function memberName(members: readonly Member[] | undefined, userId: string | null | undefined): string {
  if (!userId) return 'Unassigned'
  const m = members?.find((x) => x.user_id === userId)
  return m ? m.name || m.email : 'Former member'
}

/** What the member may do in the project: `can(key)`, and `reason(key)` to show on a disabled control (undefined when allowed). */
export function usePermissions(slug: string) {
  const { permissions } = useProjectLookups(slug)
  const held = permissions.data.value?.permissions
  const can = (key: PermissionKey) => held?.[key] === true
  const reason = (key: PermissionKey): string | undefined => {
    if (can(key)) return undefined
    if (!held) return permissions.error.value ? `Your permissions could not be read: ${permissions.error.value.message}` : 'Loading your permissions…'
    return missingPermission(key)
  }
  return { can, reason }
}
