/** Who is signed in, what they may do, and their projects: loaded once at boot, reloaded after changes. */
import { computed, signal } from '@preact/signals'
import { api, ApiError } from './api/client'
import { missingPermission } from './api/permission-names'
import type { EffectivePermissions, Me, PermissionKey, ProjectSummary, Theme } from './api/types'
import type { ServerInfoResponse } from '../../src/docs/responses/public'

/** undefined while loading, null when signed out. */
export const me = signal<Me | null | undefined>(undefined)
export const permissions = signal<EffectivePermissions | undefined>(undefined)
export const projects = signal<ProjectSummary[] | undefined>(undefined)
/** Whether Stripe billing is configured on this server (probed once; hides /billing when not); undefined while unknown. */
export const billingConfigured = signal<boolean | undefined>(undefined)
/** Whether plan and tier names may be shown: only with billing (never while unknown). */
export const showPlans = computed(() => billingConfigured.value === true)

/** Loads the profile; null when the browser has no valid session (no redirect: the caller decides). */
export async function loadSession(): Promise<Me | null> {
  try {
    const profile = await api.get<Me>('/auth/me', { redirectOn401: false })
    me.value = profile
    applyTheme(profile.theme)
    void Promise.all([loadPermissions(), loadProjects().catch(() => undefined), probeBilling()])
    return profile
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      me.value = null
      return null
    }
    throw err
  }
}

/** Effective permissions of the signed-in member (GET /api/permissions). */
export async function loadPermissions(): Promise<void> {
  permissions.value = await api.get<EffectivePermissions>('/permissions').catch(() => permissions.value)
}

/** The project list used by the switcher and the projects screen; throws when it cannot be loaded. */
export async function loadProjects(): Promise<void> {
  projects.value = await api.get<ProjectSummary[]>('/projects')
}

/** The server's public info (billing, social sign-in), loaded once; undefined until then. */
export const serverInfo = signal<ServerInfoResponse | undefined>(undefined)

/** Loads the server's public info once (sign-in pages need it before anyone is signed in). */
export async function loadServerInfo(): Promise<ServerInfoResponse | undefined> {
  serverInfo.value ??= await api.get<ServerInfoResponse>('/server-info', { redirectOn401: false }).catch(() => undefined)
  return serverInfo.value
}

/** Whether billing is configured, from the server's public info (the billing screens exist only then). */
async function probeBilling(): Promise<void> {
  billingConfigured.value = (await loadServerInfo())?.billing_configured ?? false
}

/** Whether the member holds a permission (false while permissions load). */
export function can(key: PermissionKey): boolean {
  return permissions.value?.permissions[key] === true
}

/** Why a control is disabled, or undefined when the member may use it. */
export function deniedReason(key: PermissionKey): string | undefined {
  if (can(key)) return undefined
  if (!permissions.value) return 'Loading your permissions…'
  return missingPermission(key)
}

export const accountRole = computed(() => me.value?.account?.role ?? permissions.value?.role)

/** Why the member cannot create projects (they see only some of the account's), or undefined when they can. */
export const projectCreationDenied = computed(() => {
  const access = permissions.value?.project_access
  return access === undefined || access === 'all' ? undefined : 'You see only some projects of this account: the owner or an admin creates projects and gives you access.'
})

/** Applies the profile's theme as `data-theme` on <html>; without one the system preference decides. */
export function applyTheme(theme: Theme | null | undefined): void {
  if (typeof document === 'undefined') return
  const system = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
  document.documentElement.dataset.theme = theme ?? system
}

/** Signs out: the server clears the cookie; the app goes to the sign-in page. */
export async function signOut(): Promise<void> {
  await api.post('/auth/logout', undefined, { redirectOn401: false }).catch(() => undefined)
  me.value = null
  permissions.value = undefined
  projects.value = undefined
  window.location.assign('/login')
}
