import type { ProjectAccess } from '../api/types'

type Named = { id: string; name: string }

/** How a member's access reads in the roster: every project, or the names of those listed that the viewer knows. */
export function accessLabel(access: ProjectAccess, projects: readonly Named[]): string {
  if (access === 'all') return 'All projects'
  const names = projects.filter((p) => access.includes(p.id)).map((p) => p.name)
  return names.length ? names.join(', ') : 'No project'
}

/** `access` with `projectId` added or removed (from "all", the list starts empty). */
export function toggled(access: ProjectAccess, projectId: string, on: boolean): string[] {
  const list = access === 'all' ? [] : access.filter((id) => id !== projectId)
  return on ? [...list, projectId] : list
}

/** Why `access` cannot be saved yet, or undefined. */
export function accessProblem(access: ProjectAccess): string | undefined {
  return access !== 'all' && access.length === 0 ? 'Choose at least one project.' : undefined
}
