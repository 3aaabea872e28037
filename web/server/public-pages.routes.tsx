import { eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { ComponentChildren } from 'preact'
import { render } from 'preact-render-to-string'
import type { AppDeps } from '../../src/app-deps'
import { clientIp } from '../../src/http/client-ip'
import { AppError, describeIssues } from '../../src/http/errors'
import { budgetRules } from '../../src/http/rate-limit'
import { sdkCallerOf } from '../../src/http/sdk-callers'
import { publishedEntries } from '../../src/modules/changelog/changelog.service'
import { projects } from '../../src/modules/projects/projects.table'
import { listTracker, publicProjectInfo, trackerBug } from '../../src/modules/public/public.service'
import type { TrackerQuery } from '../../src/modules/public/public.schemas'
import { roadmapOf } from '../../src/modules/public/roadmap.service'
import { type Voter, votedNumbers, voteOnRoadmap, voteOnTracker } from '../../src/modules/public/votes.service'
import { submitSchema } from '../../src/modules/sdk/sdk.schemas'
import { submitFromSdk } from '../../src/modules/sdk/submit.adapter'
import type { TrackerSettings } from '../../src/modules/settings/settings.schemas'
import { readSettings } from '../../src/modules/settings/settings.service'
import { ChangelogPage } from '../public-pages/changelog'
import { changelogFeed } from '../public-pages/feed'
import { type Branding, Layout, type PageMeta } from '../public-pages/layout'
import { NotFoundPage } from '../public-pages/not-found'
import { RoadmapPage } from '../public-pages/roadmap'
import { pageStyles, safeColor, safeCustomCss } from '../public-pages/styles'
import { ReportFiledPage, ReportFormPage, type ReportFormValues, ReportPage, type TrackerFilters, type TrackerOptions, TrackerPage } from '../public-pages/tracker'
import { filtersFrom, scriptResponse, voteOrIgnore } from './public-pages.helpers'
import { htmlSecurityHeaders } from './security-headers'
import { voteScriptUrl, webScript } from './static-assets'

type Project = NonNullable<ReturnType<typeof publicProjectInfo>>

const DEFAULT_BRAND: Branding = { name: 'Glitchbox', logoUrl: '', accent: safeColor('') }
const NUMBER = /^[1-9][0-9]{0,9}$/
/**
 * The tracker page counts matches up to this many ("1000+ reports"): past it a sparse filter or a
 * common search word made the count walk most of a large project's index. Pages past it still load.
 */
const PAGE_COUNT_CAP = 1000

interface PageOptions {
  status?: number
  meta: PageMeta
  brand: Branding
  customCss?: string
  withVoteScript?: boolean
  nav?: { href: string; label: string; current?: boolean }[]
  feed?: string
}

/** Marks a request a public page refuses with its HTML 404. */
class PageNotFound extends Error {}

/** Public pages, rendered on the server: tracker, report, roadmap, changelog and its feed, plus the vote script and /widget.js. */
export function publicPagesRoutes(deps: AppDeps) {
  const { db, config } = deps
  // Read on the server only, to file as the SDK would: the key is never rendered.
  const apiKeyOf = (projectId: string) => db.select({ apiKey: projects.apiKey }).from(projects).where(eq(projects.id, projectId)).get()?.apiKey
  const absolute = (path: string) => `${config.publicUrl}${path}`
  const budgetsFor = budgetRules(config)

  async function page(o: PageOptions, body: ComponentChildren): Promise<Response> {
    const styles = [pageStyles(o.brand.accent)]
    if (o.customCss) styles.push(safeCustomCss(o.customCss))
    const scripts = o.withVoteScript ? [await voteScriptUrl()] : []
    const html = render(
      <Layout meta={o.meta} brand={o.brand} styles={styles} scripts={scripts} nav={o.nav} feed={o.feed}>
        {body}
      </Layout>,
    )
    return new Response(`<!doctype html>${html}`, { status: o.status ?? 200, headers: htmlSecurityHeaders({ inlineStyles: styles }) })
  }

  const notFoundPage = (path: string, brand = DEFAULT_BRAND) =>
    page({ status: 404, brand, meta: { title: `Page not found · ${brand.name}`, description: 'This page does not exist or is not public.', url: absolute(path) } }, <NotFoundPage />)

  /** Runs a page handler; unknown projects, disabled pages and missing reports answer the HTML 404. */
  const guarded = async (path: string, fn: () => Promise<Response> | Response): Promise<Response> => {
    try {
      return await fn()
    } catch (e) {
      if (e instanceof PageNotFound || (e instanceof AppError && e.status === 404)) return notFoundPage(path)
      throw e
    }
  }

  const projectOf = (slug: string): Project => {
    const p = publicProjectInfo(db, slug)
    if (!p) throw new PageNotFound()
    return p
  }

  /** Company name, logo and accent: the tracker's own where set, else the project's branding, else the project name. */
  const brandOf = (project: Project, tracker?: Pick<TrackerSettings, 'logo_url' | 'accent_color'>): Branding => {
    const b = readSettings(db, project.id, 'branding')
    return { name: b.company_name || project.name, logoUrl: tracker?.logo_url || b.logo_url, accent: safeColor(tracker?.accent_color || b.primary_color) }
  }

  const navOf = (project: Project, slug: string, current: 'tracker' | 'roadmap' | 'changelog') => {
    const s = encodeURIComponent(slug)
    const links: { href: string; label: string; current?: boolean }[] = []
    if (readSettings(db, project.id, 'tracker').enabled) links.push({ href: `/tracker/${s}`, label: 'Known issues', current: current === 'tracker' })
    if (readSettings(db, project.id, 'roadmap').enabled) links.push({ href: `/roadmap/${s}`, label: 'Roadmap', current: current === 'roadmap' })
    links.push({ href: `/changelog/${s}`, label: 'Changelog', current: current === 'changelog' })
    return links
  }

  const voterOf = (request: Request, server: Parameters<typeof clientIp>[1]): Voter => ({ ip: clientIp(request, server, config.trustProxy) })

  /** Form posts live outside /api, so they count against the same budgets as the API routes they stand for. */
  const limited = (request: Request, server: Parameters<typeof clientIp>[1], apiPath: string): boolean => {
    const budgets = budgetsFor('POST', apiPath)
    return budgets.length > 0 && !deps.rateLimiter.hit(clientIp(request, server, config.trustProxy), budgets).allowed
  }

  const tooMany = (path: string) =>
    page({ status: 429, brand: DEFAULT_BRAND, meta: { title: 'Too many requests', description: 'Slow down', url: absolute(path) } }, <NotFoundPage heading="Too many requests" message="Please wait a minute and try again." />)

  /** A safe place to send a voter back to: a path on this site's public pages only. */
  const backTo = (back: unknown, fallback: string): string =>
    typeof back === 'string' && /^\/(?:tracker|roadmap)\/[^/\\]/.test(back) && !back.includes('//') ? back : fallback

  const trackerContext = (slug: string) => {
    const project = projectOf(slug)
    const settings = readSettings(db, project.id, 'tracker')
    if (!settings.enabled) throw new PageNotFound()
    const o: TrackerOptions = {
      slug,
      allowSearch: settings.allow_search,
      allowUpvotes: settings.allow_upvotes,
      showCategories: settings.show_categories,
      showStatusFilter: settings.show_status_filter,
      canReport: project.isPublic,
    }
    return { project, settings, o, brand: brandOf(project, settings) }
  }

  const filing = async (slug: string, form: Record<string, unknown>, path: string): Promise<Response> => {
    const { project, settings, o, brand } = trackerContext(slug)
    const values: ReportFormValues = {
      title: typeof form.title === 'string' ? form.title : '',
      description: typeof form.description === 'string' ? form.description : '',
      category: typeof form.category === 'string' ? form.category : undefined,
      email: typeof form.email === 'string' ? form.email.trim() : '',
    }
    const key = o.canReport ? apiKeyOf(project.id) : undefined
    const caller = key ? sdkCallerOf(db, key) : undefined
    if (!caller) throw new PageNotFound()
    const meta = { title: `Report a bug · ${brand.name}`, description: `Report a bug in ${project.name}`, url: absolute(path) }
    const formPage = (status: number, error: string) =>
      page({ status, brand, meta, customCss: settings.custom_css }, <ReportFormPage slug={slug} values={values} error={error} />)
    const input = submitSchema.safeParse({ title: values.title, description: values.description, category: values.category, reporter_email: values.email || undefined, platform: 'web' })
    if (!input.success) return formPage(400, `Please check the form: ${describeIssues(input.error.issues as never)}`)
    try {
      const { created, body } = await submitFromSdk(deps, caller.project, input.data)
      return page(
        { status: created ? 201 : 200, brand, meta: { ...meta, title: `Report #${body.report_number} filed · ${brand.name}` }, customCss: settings.custom_css },
        <ReportFiledPage slug={slug} number={body.report_number} stacked={!created} visible />,
      )
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return formPage(e.status, e.message)
      throw e
    }
  }

  return new Elysia({ name: 'public-pages', seed: deps.instanceId })
    .get('/tracker/:slug', ({ params, query, request, server, path }) =>
      guarded(path, async () => {
        const { project, settings, o, brand } = trackerContext(params.slug)
        const given = filtersFrom(query)
        const f: TrackerFilters & TrackerQuery = { ...given, page: given.page ?? 1 }
        if (!settings.allow_search) f.q = undefined
        if (!settings.show_status_filter) f.status = undefined
        if (!settings.show_categories) f.category = undefined
        const list = listTracker(db, params.slug, f, PAGE_COUNT_CAP)
        const voted = settings.allow_upvotes ? votedNumbers(deps, project.id, list.bugs.map((b) => b.report_number), voterOf(request, server)) : new Set<number>()
        const title = settings.page_title || `${brand.name} known issues`
        const description = settings.page_description || `Known issues and bug reports for ${project.name}`
        return page(
          { meta: { title, description, url: absolute(path), image: brand.logoUrl || undefined }, brand, customCss: settings.custom_css, withVoteScript: settings.allow_upvotes, nav: navOf(project, params.slug, 'tracker') },
          <TrackerPage o={o} f={f} title={title} description={settings.page_description} bugs={list.bugs} total={list.total} totalCapped={'total_capped' in list} totalPages={list.total_pages} voted={voted} />,
        )
      }),
    )
    .get('/tracker/:slug/report', ({ params, path }) =>
      guarded(path, () => {
        const { project, settings, o, brand } = trackerContext(params.slug)
        if (!o.canReport) throw new PageNotFound()
        return page(
          { meta: { title: `Report a bug · ${brand.name}`, description: `Report a bug in ${project.name}`, url: absolute(path) }, brand, customCss: settings.custom_css, nav: navOf(project, params.slug, 'tracker') },
          <ReportFormPage slug={params.slug} values={{}} />,
        )
      }),
    )
    .post('/tracker/:slug/report', ({ params, body, request, server, path }) =>
      guarded(path, () => (limited(request, server, '/bugs/submit') ? tooMany(path) : filing(params.slug, (body ?? {}) as Record<string, unknown>, path))),
    )
    .get('/tracker/:slug/:number', ({ params, request, server, path }) =>
      guarded(path, () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        const { project, settings, o, brand } = trackerContext(params.slug)
        const bug = trackerBug(db, params.slug, Number(params.number))
        const voted = settings.allow_upvotes && votedNumbers(deps, project.id, [bug.report_number], voterOf(request, server)).size > 0
        const description = bug.description.slice(0, 200) || `Report #${bug.report_number} on ${project.name}`
        return page(
          {
            meta: { title: `#${bug.report_number} ${bug.title} · ${brand.name}`, description, url: absolute(path), image: brand.logoUrl || undefined },
            brand,
            customCss: settings.custom_css,
            withVoteScript: settings.allow_upvotes,
            nav: navOf(project, params.slug, 'tracker'),
          },
          <ReportPage o={o} bug={bug} voted={voted} />,
        )
      }),
    )
    .post('/tracker/:slug/:number/vote', ({ params, body, request, server, path, redirect }) =>
      guarded(path, () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        if (limited(request, server, `/tracker/${params.slug}/bugs/${params.number}/vote`)) return tooMany(path)
        voteOrIgnore(() => voteOnTracker(deps, params.slug, Number(params.number), voterOf(request, server)))
        return redirect(backTo((body as Record<string, unknown> | undefined)?.back, `/tracker/${encodeURIComponent(params.slug)}`), 303)
      }),
    )
    .get('/roadmap/:slug', ({ params, request, server, path }) =>
      guarded(path, () => {
        const project = projectOf(params.slug)
        const roadmap = roadmapOf(db, params.slug)
        const brand = brandOf(project)
        const numbers = roadmap.columns.flatMap((c) => c.bugs.map((b) => b.report_number))
        const voted = roadmap.settings.show_upvotes ? votedNumbers(deps, project.id, numbers, voterOf(request, server)) : new Set<number>()
        const title = roadmap.settings.title || `${brand.name} roadmap`
        return page(
          { meta: { title, description: roadmap.settings.description || `What is being worked on in ${project.name}`, url: absolute(path), image: brand.logoUrl || undefined }, brand, withVoteScript: roadmap.settings.show_upvotes, nav: navOf(project, params.slug, 'roadmap') },
          <RoadmapPage slug={params.slug} title={title} description={roadmap.settings.description} showUpvotes={roadmap.settings.show_upvotes} columns={roadmap.columns} voted={voted} linkToTracker={readSettings(db, project.id, 'tracker').enabled} />,
        )
      }),
    )
    .post('/roadmap/:slug/:number/vote', ({ params, request, server, path, redirect }) =>
      guarded(path, () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        if (limited(request, server, `/roadmap/${params.slug}/bugs/${params.number}/vote`)) return tooMany(path)
        voteOrIgnore(() => voteOnRoadmap(deps, params.slug, Number(params.number), voterOf(request, server)))
        return redirect(`/roadmap/${encodeURIComponent(params.slug)}`, 303)
      }),
    )
    .get('/changelog/:slug', ({ params, path }) =>
      guarded(path, () => {
        const project = projectOf(params.slug)
        const brand = brandOf(project)
        const entries = publishedEntries(db, params.slug)
        const feed = `/changelog/${encodeURIComponent(params.slug)}/feed.xml`
        return page(
          { meta: { title: `Changelog · ${brand.name}`, description: `Updates and fixes in ${project.name}`, url: absolute(path), image: brand.logoUrl || undefined }, brand, feed, nav: navOf(project, params.slug, 'changelog') },
          <ChangelogPage slug={params.slug} name={brand.name} entries={entries} />,
        )
      }),
    )
    .get('/changelog/:slug/feed.xml', ({ params, path }) =>
      guarded(path, () => {
        const project = projectOf(params.slug)
        const xml = changelogFeed({ baseUrl: config.publicUrl, slug: params.slug, name: brandOf(project).name, entries: publishedEntries(db, params.slug), now: deps.clock.now() })
        return new Response(xml, { headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' } })
      }),
    )
    .get('/public-assets/:file', async ({ params }) => {
      const vote = await webScript('vote')
      if (params.file !== `vote.${vote.hash}.js`) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      return scriptResponse(vote.body, vote.hash, 'public, max-age=31536000, immutable')
    })
    .get('/widget.js', async () => {
      const widget = await webScript('widget')
      // A fixed URL that game pages embed: cached briefly, revalidated by ETag.
      return scriptResponse(widget.body, widget.hash, 'public, max-age=300')
    })
}
