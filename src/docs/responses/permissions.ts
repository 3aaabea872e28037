import * as z from 'zod'
import { type OperationDocs, uuid } from './common'
import { AccountMember, AccountRole, ProjectAccess } from './team'

export const PermissionMap = z.record(z.string(), z.boolean()).describe('Permission key (e.g. bugs.assign) to whether it is granted')
export const EffectivePermissionsResponse = z.object({
  role: AccountRole,
  permissions: PermissionMap.describe('Permission key to whether it is granted, inside the projects of project_access'),
  project_access: ProjectAccess,
})
export const MemberPermissionsResponse = EffectivePermissionsResponse.extend({
  user_id: uuid,
  overrides: z.record(z.string(), z.boolean()).nullable().describe('Per-member overrides of the role defaults'),
})
export const PermissionCatalogResponse = z.object({
  groups: z.array(z.object({ key: z.string(), name: z.string(), permissions: z.array(z.object({ key: z.string(), name: z.string(), description: z.string() })) })),
  role_defaults: z.record(z.string(), PermissionMap),
})
export const ProjectPermissionsResponse = EffectivePermissionsResponse.extend({
  members: z.array(AccountMember.extend({ permissions: PermissionMap, overrides: z.record(z.string(), z.boolean()).nullable() })),
})

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type EffectivePermissionsResponse = z.output<typeof EffectivePermissionsResponse>
export type MemberPermissionsResponse = z.output<typeof MemberPermissionsResponse>
export type PermissionCatalogResponse = z.output<typeof PermissionCatalogResponse>
export type ProjectPermissionsResponse = z.output<typeof ProjectPermissionsResponse>

export const permissionsDocs: OperationDocs = {
  'GET /api/permissions': { data: EffectivePermissionsResponse },
  'GET /api/permissions/available': { data: PermissionCatalogResponse },
  'GET /api/account/members/{userId}/permissions': { data: MemberPermissionsResponse },
  'PUT /api/account/members/{userId}/permissions': { data: MemberPermissionsResponse },
  'DELETE /api/account/members/{userId}/permissions': { data: MemberPermissionsResponse },
  'GET /api/projects/{slug}/permissions': { data: ProjectPermissionsResponse },
  'PUT /api/projects/{slug}/permissions': { data: MemberPermissionsResponse },
  'DELETE /api/projects/{slug}/permissions': { data: MemberPermissionsResponse },
  'GET /api/projects/{slug}/permissions/{userId}': { data: MemberPermissionsResponse },
  'PUT /api/projects/{slug}/permissions/{userId}': { data: MemberPermissionsResponse },
  'DELETE /api/projects/{slug}/permissions/{userId}': { data: MemberPermissionsResponse },
}
