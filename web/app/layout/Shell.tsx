import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import type { ProjectDetail } from '../api/types'
import { Button, ErrorState, Page, toast, useAction } from '../components'
import { projectLookups } from '../reports/project-lookups'
import { billingConfigured, can, me, projectCreationDenied, projects, serverInfo, signOut } from '../session'
import { currentPath, Link, navigate } from '../router'

/** The slug of the project the URL is about (`/projects/:slug/…`), if any. */
export function slugFromPath(path: string): string | null {
  const m = /^\/projects\/([^/]+)/.exec(path)
  if (!m || m[1] === 'new') return null
  try {
    return decodeURIComponent(m[1]!)
  } catch {
    return m[1]!
  }
}

/**
 * A renamed project's old slug in the URL (a bookmark, a teammate's link): the API answers the old
 * slug with a redirect, so the read comes back with the new slug, and the URL follows it.
 */
function useCurrentSlug(slug: string | null) {
  const list = projects.value
  useEffect(() => {
    if (!slug || !list || list.some((p) => p.slug === slug)) return
    let live = true
    api
      .get<ProjectDetail>(projectPath(slug))
      .then((p) => {
        if (live && p.slug !== slug && slugFromPath(currentPath.value) === slug) {
          const rest = currentPath.value.slice(projectPath(slug).length)
          navigate(`${projectPath(p.slug)}${rest}${window.location.search}`, { replace: true })
        }
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [slug, list])
}

/** The dashboard frame: skip link, top bar (brand, project switcher, nav, user menu), banners, main. */
export function Shell({ children }: { children: ComponentChildren }) {
  const slug = slugFromPath(currentPath.value)
  useCurrentSlug(slug)
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a href="/" class="brand" aria-label="Glitchbox home">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          <span>Glitchbox</span>
        </a>
        <ProjectSwitcher slug={slug} />
        <nav aria-label="Main" class="mainnav">
          {slug ? (
            <>
              <Link href={`/projects/${encodeURIComponent(slug)}/reports`}>Reports</Link>
              <Link href={`/projects/${encodeURIComponent(slug)}/analytics`}>Analytics</Link>
              <Link href={`/projects/${encodeURIComponent(slug)}/settings`}>Settings</Link>
            </>
          ) : (
            <Link href="/" exact>
              Projects
            </Link>
          )}
          <Link href="/team">Team</Link>
          {billingConfigured.value && can('billing.manage') && <Link href="/billing">Billing</Link>}
        </nav>
        <UserMenu />
      </header>
      <VerifyBanner />
      <main id="main" tabIndex={-1}>
        {slug ? <ProjectGate slug={slug}>{children}</ProjectGate> : children}
      </main>
    </>
  )
}

/**
 * A project the member may not open (none by that slug, or one hidden from a member limited to chosen
 * projects) is one "Not found" for every screen under it, rather than each screen's own take on a 404.
 * The check is the project's permissions lookup, which the screens share and read anyway.
 */
function ProjectGate({ slug, children }: { slug: string; children: ComponentChildren }) {
  const access = projectLookups(slug).permissions
  // A refusal is asked again on the next visit to the project: access may have been granted since.
  useEffect(() => {
    if (access.data.value === undefined && !access.loading.value) void access.reload()
  }, [access])
  if (access.error.value?.status !== 404) return <>{children}</>
  // Keyed by the address: moving between screens of the missing project mounts it again, so its
  // title is set after the new screen's route title (the same Page would not set it again).
  return (
    <Page key={window.location.pathname} title="Project not found">
      <ErrorState title="Not found" message="No project of yours has this address: it does not exist, or you do not have access to it." />
      <p>
        <Link href="/">Go to your projects</Link>
      </p>
    </Page>
  )
}

/** A native select of the account's projects the member sees; choosing one opens it. */
function ProjectSwitcher({ slug }: { slug: string | null }) {
  const list = projects.value
  if (!list || list.length === 0) return null
  return (
    <div class="switcher">
      <label for="project-switcher" class="sr-only">
        Project
      </label>
      <select
        id="project-switcher"
        value={slug ?? ''}
        onChange={(e) => {
          const v = e.currentTarget.value
          if (v === '__new') navigate('/projects/new')
          else navigate(v ? `/projects/${encodeURIComponent(v)}` : '/')
        }}
      >
        <option value="">All projects</option>
        {list.map((p) => (
          <option key={p.slug} value={p.slug}>
            {p.name}
          </option>
        ))}
        {!projectCreationDenied.value && <option value="__new">+ New project…</option>}
      </select>
    </div>
  )
}

/** The signed-in user's menu (a disclosure): account, theme, sign out. */
function UserMenu() {
  const user = me.value
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  // Closes when the click or the focus goes elsewhere.
  useEffect(() => {
    if (!open) return
    const away = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('click', away)
    document.addEventListener('focusin', away)
    return () => {
      document.removeEventListener('click', away)
      document.removeEventListener('focusin', away)
    }
  }, [open])
  if (!user) return null
  const name = user.display_name || user.name || user.email
  return (
    <div
      class="usermenu"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false)
      }}
    >
      <button type="button" class="usermenu-button" aria-expanded={open} aria-controls="user-menu" onClick={() => setOpen(!open)}>
        {user.avatar_url ? <img src={user.avatar_url} alt="" class="avatar" /> : <span class="avatar avatar-letter" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>}
        <span class="usermenu-name">{name}</span>
        <span class="sr-only">: account menu</span>
      </button>
      {open && (
        <div id="user-menu" class="usermenu-panel" onClick={() => setOpen(false)}>
          <p class="muted small">{user.email}</p>
          <a href="/account">Account</a>
          <a href="/settings/notifications">Notifications</a>
          <a href="/team">Team</a>
          <button type="button" class="linklike" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      )}
    </div>
  )
}

/**
 * Shown until the email address is verified, with a resend button; only on a server that sends mail:
 * without SMTP the link would only reach the server log (`glitchbox admin verify EMAIL` instead).
 */
function VerifyBanner() {
  const user = me.value
  const resend = useAction(
    async () => {
      const r = await api.post<{ message: string }>('/auth/resend-verification')
      toast(r.message)
    },
    { toastErrors: true },
  )
  if (!user || user.email_verified || serverInfo.value?.mail_configured !== true) return null
  return (
    <div class="banner" role="region" aria-label="Email verification">
      <span>
        Please verify your email address <strong>{user.email}</strong>: we sent you a link.
      </span>
      <Button size="sm" busy={resend.busy} onClick={resend.run}>
        Resend verification email
      </Button>
    </div>
  )
}

/** The frame of the signed-out pages (sign in, sign up, password reset). */
export function AuthShell({ children }: { children: ComponentChildren }) {
  return (
    <main id="main" class="auth-main">
      <div class="auth-card">
        <a href="/login" class="brand brand-center" aria-label="Glitchbox">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          <span>Glitchbox</span>
        </a>
        {children}
      </div>
    </main>
  )
}
