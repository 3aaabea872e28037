/**
 * The dashboard's entry: loads the session, resolves the URL against the route table and renders the screen
 * in its frame.
 *
 * ## How to build a screen
 * 1. Make a component in `web/app/<domain>/` taking `RouteProps` (`{params, query}` from `./router`):
 *    `export function ReportList({ params, query }: RouteProps) { … }`.
 * 2. Register it in `web/app/routes.tsx` (the reports block is yours): `{ path: '/projects/:slug/reports', component: ReportList }`.
 *    Order matters: the first matching pattern wins. `public: true` for signed-out pages, `bare: true` for no shell.
 * 3. Data: `const list = useApi<T>(path, { query })` (`./api/resource`) gives `data/error/loading` signals and
 *    `reload()`; render it with `<Async resource={list} empty={<EmptyState …/>}>{(data) => …}</Async>` (spinner,
 *    error with retry, empty state). Writes: `await api.post/patch/put/delete(path, body)` (`./api/client`) resolve to
 *    the envelope's `data` or throw `ApiError` (`status`, `message`: show the message as it is, e.g. `toast(messageOf(err), 'error')`).
 *    Types: `./api/types` (request bodies are `z.infer` of the server's schemas). Project paths: `projectPath(slug, '/bugs')`.
 * 4. URL state: read `query` (or `currentQuery.value`), change it with `setQuery({ status: 'open', page: null })`
 *    (`{ replace: true }` while typing); links are plain `<a href>` (or `<Link>` for `aria-current`); `navigate(url)` in code.
 * 5. Permissions: `can('bugs.delete')` hides what a member may not do, `deniedReason('bugs.delete')` gives the sentence
 *    for a disabled control (`<Button reason={deniedReason('bugs.delete')}>`); never show a raw 403.
 * 6. UI: `./components` (Page, Section, Button, TextField, Select, Checkbox, Dialog, ConfirmDialog with `typed`, Table,
 *    Tabs, NavTabs, Toasts via `toast()`, EmptyState, ErrorState, Spinner, CopyButton, CodeBlock, Badge, Chart, UsageBar).
 *    Every control has a label (browser tests use getByRole/getByLabel). Styles: classes in `./styles/app.css`, colors
 *    only through its custom properties (light and dark themes).
 */
import { Component, render, type ComponentChildren } from 'preact'
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { ErrorState, Spinner, Toasts } from './components'
import { AuthShell, Shell } from './layout/Shell'
import { buildUrl, currentPath, currentQuery, navigate, resolve, useRouter } from './router'
import { routes } from './routes'
import { applyTheme, loadServerInfo, loadSession, me } from './session'
import { NotFound } from './layout/NotFound'
import { safeNext } from './auth/next'


function App() {
  useRouter()
  useEffect(() => {
    void loadSession().catch(() => {
      me.value = null
    })
  }, [])
  const path = currentPath.value
  const query = currentQuery.value
  const found = resolve(routes, path)
  const user = me.value

  useEffect(() => {
    if (!found) return
    if (!found.route.public && user === null) {
      const next = path === '/' ? undefined : path + window.location.search
      // A server nobody has signed up on yet opens on Sign up: the first account is the studio's owner.
      void loadServerInfo().then((info) => currentPath.value === path && navigate(buildUrl(info?.has_accounts === false ? '/signup' : '/login', { next }), { replace: true }))
    }
    if (found.route.public && found.route.bare && user && /^\/(login|signup)$/.test(path)) navigate(safeNext(query.next), { replace: true })
  }, [found?.route, user, path])

  // After an in-app navigation, screen readers and keyboard users start at the new screen's content.
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const main = document.getElementById('main')
    // A screen that focused one of its own controls keeps it.
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true })
  }, [path])

  // The route's title is set before the screen's effects run (a layout effect runs first), so a
  // screen's own <Page> title, e.g. "Project not found" under a report's address, has the last word.
  useLayoutEffect(() => {
    if (!found?.route.title) return
    const t = typeof found.route.title === 'function' ? found.route.title(found.params) : found.route.title
    document.title = `${t} · Glitchbox`
  }, [found?.route, path])

  if (!found) {
    return user ? (
      <Shell>
        <NotFound />
      </Shell>
    ) : (
      <AuthShell>
        <NotFound />
      </AuthShell>
    )
  }
  const { route, params } = found
  const Screen = route.component
  if (route.bare) {
    if (user === undefined && !route.public) return <Spinner />
    return (
      <AuthShell>
        <Screen params={params} query={query} />
      </AuthShell>
    )
  }
  if (user === undefined) return <Spinner label="Loading Glitchbox…" />
  if (!user) return route.public ? <Screen params={params} query={query} /> : <Spinner />
  return (
    <Shell>
      <ScreenBoundary key={path}>
        <Screen params={params} query={query} />
      </ScreenBoundary>
    </Shell>
  )
}

/** Keeps one broken screen from blanking the whole app. */
class ScreenBoundary extends Component<{ children: ComponentChildren }, { error: Error | null }> {
  state = { error: null as Error | null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  render() {
    if (this.state.error) return <ErrorState title="This screen failed" message={this.state.error.message} onRetry={() => this.setState({ error: null })} />
    return this.props.children
  }
}

const root = document.getElementById('app')
if (root) {
  // The system's theme until the profile says otherwise.
  applyTheme(null)
  render(
    <>
      <App />
      <Toasts />
    </>,
    root,
  )
}
