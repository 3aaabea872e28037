import { Elysia } from 'elysia'
import type { AppDeps } from '../../src/app-deps'
import { clientIp } from '../../src/http/client-ip'
import { AppError, describeIssues } from '../../src/http/errors'
import { budgetRules } from '../../src/http/rate-limit'
import { sdkCallerOf } from '../../src/http/sdk-callers'
import { publishedEntries } from '../../src/modules/changelog/changelog.service'
import { createProjectsRepository, type PublicProjectRow } from '../../src/modules/projects/projects.repository'
import { isPublicReport, listTracker, publicProjectInfo, trackerBug } from '../../src/modules/public/public.service'
import { pageVoterOf, voterOf } from '../../src/modules/public/voter-cookie'
import type { TrackerQuery } from '../../src/modules/public/public.schemas'
import { roadmapOf } from '../../src/modules/public/roadmap.service'
import { votedNumbers, voteOnRoadmap, voteOnTracker } from '../../src/modules/public/votes.service'
import { submitSchema } from '../../src/modules/sdk/sdk.schemas'
import { submitFromSdk } from '../../src/modules/sdk-api/submit.adapter'
import type { TrackerSettings } from '../../src/modules/settings/settings.schemas'
import { settingsOf as projectSettingsOf } from '../../src/modules/settings/settings.service'
import { ChangelogPage } from '../public-pages/changelog'
import { changelogFeed } from '../public-pages/feed'
import { type Branding, documentTitle } from '../public-pages/layout'
import { NotFoundPage } from '../public-pages/not-found'
import { RoadmapPage } from '../public-pages/roadmap'
import { safeColor } from '../public-pages/styles'
import { MAX_SCREENSHOT_MB, ReportFiledPage, ReportFormPage, type ReportFormValues } from '../public-pages/report-form'
import { ReportPage, type TrackerFilters, type TrackerOptions, TrackerPage } from '../public-pages/tracker'
import { filtersFrom, roadmapFiltersFrom, screenshotDataUrl, scriptResponse, voteOrIgnore } from './public-pages.helpers'
import { DEFAULT_BRAND, publicPage } from './public-page.render'
import { unsubscribeRoutes } from './unsubscribe.routes'
import { webScript } from './static-assets'

type Project = PublicProjectRow

const NUMBER = /^[1-9][0-9]{0,9}$/
/**
 * The tracker page counts matches up to this many ("1000+ reports"): past it a sparse filter or a
 * common search word made the count walk most of a large project's index. Pages past it still load.
 */
const PAGE_COUNT_CAP = 1000

/** Marks a request a public page refuses with its HTML 404. */
class PageNotFound extends Error {}

/** Public pages, rendered on the server: tracker, report, roadmap, changelog and its feed, plus the vote script and /widget.js. */
export function publicPagesRoutes(deps: AppDeps) {
  const { db, config } = deps
  // Read on the server only, to file as the SDK would: the key is never rendered.
  const apiKeyOf = (projectId: string) => createProjectsRepository({ db }).apiKeyOf(projectId)
  const settingsOf = <K extends 'tracker' | 'roadmap' | 'branding'>(projectId: string, kind: K) => projectSettingsOf(db, projectId, kind)
  const absolute = (path: string) => `${config.publicUrl}${path}`
  const budgetsFor = budgetRules(config)

  const notFoundPage = (path: string, brand = DEFAULT_BRAND) =>
    publicPage({ status: 404, brand, meta: { title: `Page not found · ${brand.name}`, description: 'This page does not exist or is not public.', url: absolute(path) } }, <NotFoundPage />)

  /** Runs a page handler; unknown projects, disabled pages and missing reports answer the HTML 404. */
  const guarded = async (path: string, fn: () => Promise<Response> | Response): Promise<Response> => {
    try {
      return await fn()
    } catch (e) {
      if (e instanceof PageNotFound || (e instanceof AppError && e.status === 404)) return notFoundPage(path)
      throw e
    }
  }

  const projectOf = async (slug: string): Promise<Project> => {
    const p = await publicProjectInfo(deps, slug)
    if (!p) throw new PageNotFound()
    return p
  }

  /**
   * The project's name (the pages are titled with it), the company from its branding as the subtitle,
   * and the logo and accent: the tracker's own where set, else the branding's.
   */
  const brandOf = async (project: Project, tracker?: Pick<TrackerSettings, 'logo_url' | 'accent_color'>): Promise<Branding> => {
    const b = await settingsOf(project.id, 'branding')
    const company = b.company_name.trim() === project.name.trim() ? '' : b.company_name.trim()
    return { name: project.name, company, logoUrl: tracker?.logo_url || b.logo_url, accent: safeColor(tracker?.accent_color || b.primary_color) }
  }

  const navOf = async (project: Project, slug: string, current: 'tracker' | 'roadmap' | 'changelog') => {
    const s = encodeURIComponent(slug)
    const links: { href: string; label: string; current?: boolean }[] = []
    if ((await settingsOf(project.id, 'tracker')).enabled) links.push({ href: `/tracker/${s}`, label: 'Known issues', current: current === 'tracker' })
    if ((await settingsOf(project.id, 'roadmap')).enabled) links.push({ href: `/roadmap/${s}`, label: 'Roadmap', current: current === 'roadmap' })
    links.push({ href: `/changelog/${s}`, label: 'Changelog', current: current === 'changelog' })
    return links
  }

  type Peer = Parameters<typeof clientIp>[1]
  const ipOf = (request: Request, server: Peer) => clientIp(request, server, config.trustProxy)

  /** Form posts live outside /api, so they count against the same budgets as the API routes they stand for. */
  const limited = (request: Request, server: Peer, apiPath: string): boolean => {
    const budgets = budgetsFor('POST', apiPath)
    return budgets.length > 0 && !deps.rateLimiter.hit(ipOf(request, server), budgets).allowed
  }

  const tooMany = (path: string) =>
    publicPage({ status: 429, brand: DEFAULT_BRAND, meta: { title: 'Too many requests', description: 'Slow down', url: absolute(path) } }, <NotFoundPage heading="Too many requests" message="Please wait a minute and try again." />)

  /**
   * A safe place to send a voter back to: a path on this site's public pages only, in printable ASCII
   * (a control character or other byte a `Location` header cannot carry would fail the answer), else `fallback`.
   */
  const backTo = (back: unknown, fallback: string): string =>
    typeof back === 'string' && /^\/(?:tracker|roadmap)\/[^/\\][\x21-\x7e]*$/.test(back) && !back.includes('//') && !back.includes('\\') ? back : fallback

  const trackerContext = async (slug: string) => {
    const project = await projectOf(slug)
    const settings = await settingsOf(project.id, 'tracker')
    if (!settings.enabled) throw new PageNotFound()
    const o: TrackerOptions = {
      slug,
      allowSearch: settings.allow_search,
      allowUpvotes: settings.allow_upvotes,
      showCategories: settings.show_categories,
      showStatusFilter: settings.show_status_filter,
      canReport: project.isPublic,
    }
    return { project, settings, o, brand: await brandOf(project, settings) }
  }

  const filing = async (slug: string, form: Record<string, unknown>, path: string): Promise<Response> => {
    const { project, settings, o, brand } = await trackerContext(slug)
    const values: ReportFormValues = {
      title: typeof form.title === 'string' ? form.title : '',
      description: typeof form.description === 'string' ? form.description : '',
      category: typeof form.category === 'string' ? form.category : undefined,
      email: typeof form.email === 'string' ? form.email.trim() : '',
    }
    const key = o.canReport ? await apiKeyOf(project.id) : undefined
    const caller = key ? await sdkCallerOf(db, key) : undefined
    if (!caller) throw new PageNotFound()
    const meta = { title: documentTitle(`Report a bug in ${project.name}`, brand), description: `Report a bug in ${project.name}`, url: absolute(path) }
    const formPage = (status: number, error: string) =>
      publicPage({ status, brand, meta, customCss: settings.custom_css, withVoteScript: true }, <ReportFormPage slug={slug} values={values} error={error} />)
    const screenshot = await screenshotDataUrl(form.screenshot, MAX_SCREENSHOT_MB * 1024 * 1024)
    if (screenshot.error) return formPage(400, screenshot.error)
    const input = submitSchema.safeParse({
      title: values.title,
      description: values.description,
      category: values.category,
      reporter_email: values.email || undefined,
      screenshot: screenshot.dataUrl,
      platform: 'web',
    })
    if (!input.success) return formPage(400, `Please check the form: ${describeIssues(input.error.issues as never)}`)
    try {
      const { created, body } = await submitFromSdk(deps, caller.project, input.data)
      return publicPage(
        { status: created ? 201 : 200, brand, meta: { ...meta, title: documentTitle(`Report #${body.report_number} filed`, brand) }, customCss: settings.custom_css },
        <ReportFiledPage slug={slug} number={body.report_number} stacked={!created} visible={await isPublicReport(deps, project.id, settings, { number: body.report_number })} />,
      )
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return formPage(e.status, e.message)
      throw e
    }
  }

  return new Elysia({ name: 'public-pages', seed: deps.instanceId })
    .use(unsubscribeRoutes(deps))
    .get('/tracker/:slug', ({ params, query, request, server, path }) =>
      guarded(path, async () => {
        const { project, settings, o, brand } = await trackerContext(params.slug)
        const given = filtersFrom(query)
        const f: TrackerFilters & TrackerQuery = { ...given, page: given.page ?? 1 }
        if (!settings.allow_search) f.q = undefined
        if (!settings.show_status_filter) f.status = undefined
        if (!settings.show_categories) f.category = undefined
        const list = await listTracker(deps, params.slug, f, PAGE_COUNT_CAP)
        const { voter, setCookie } = await pageVoterOf(deps, request, ipOf(request, server))
        const voted = settings.allow_upvotes ? await votedNumbers(deps, project.id, list.bugs.map((b) => b.report_number), voter) : new Set<number>()
        const title = settings.page_title || `${project.name} known issues`
        const description = settings.page_description || `Known issues and bug reports for ${project.name}`
        return publicPage(
          {
            meta: { title: documentTitle(title, brand), description, url: absolute(path), image: brand.logoUrl || undefined },
            brand,
            customCss: settings.custom_css,
            withVoteScript: settings.allow_upvotes,
            nav: await navOf(project, params.slug, 'tracker'),
            setCookie,
          },
          <TrackerPage o={o} f={f} title={title} brand={brand} description={settings.page_description} bugs={list.bugs} total={list.total} totalCapped={'total_capped' in list} totalPages={list.total_pages} voted={voted} />,
        )
      }),
    )
    .get('/tracker/:slug/report', ({ params, request, server, path }) =>
      guarded(path, async () => {
        const { project, settings, o, brand } = await trackerContext(params.slug)
        if (!o.canReport) throw new PageNotFound()
        // The suggestions' vote buttons vote as this browser: give it its voter cookie now.
        const { setCookie } = await pageVoterOf(deps, request, ipOf(request, server))
        return publicPage(
          {
            meta: { title: documentTitle(`Report a bug in ${project.name}`, brand), description: `Report a bug in ${project.name}`, url: absolute(path) },
            brand,
            customCss: settings.custom_css,
            withVoteScript: true,
            nav: await navOf(project, params.slug, 'tracker'),
            setCookie,
          },
          <ReportFormPage slug={params.slug} values={{}} />,
        )
      }),
    )
    .post('/tracker/:slug/report', ({ params, body, request, server, path }) =>
      guarded(path, () => (limited(request, server, '/bugs/submit') ? tooMany(path) : filing(params.slug, (body ?? {}) as Record<string, unknown>, path))),
    )
    .get('/tracker/:slug/:number', ({ params, request, server, path }) =>
      guarded(path, async () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        const { project, settings, o, brand } = await trackerContext(params.slug)
        const bug = await trackerBug(deps, params.slug, Number(params.number))
        const { voter, setCookie } = await pageVoterOf(deps, request, ipOf(request, server))
        const voted = settings.allow_upvotes && (await votedNumbers(deps, project.id, [bug.report_number], voter)).size > 0
        const description = bug.description.slice(0, 200) || `Report #${bug.report_number} on ${project.name}`
        return publicPage(
          {
            meta: { title: `#${bug.report_number} ${bug.title} · ${project.name}`, description, url: absolute(path), image: brand.logoUrl || undefined },
            brand,
            customCss: settings.custom_css,
            withVoteScript: settings.allow_upvotes,
            nav: await navOf(project, params.slug, 'tracker'),
            setCookie,
          },
          <ReportPage o={o} bug={bug} voted={voted} />,
        )
      }),
    )
    .post('/tracker/:slug/:number/vote', ({ params, body, request, server, path, redirect }) =>
      guarded(path, async () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        if (limited(request, server, `/tracker/${params.slug}/bugs/${params.number}/vote`)) return tooMany(path)
        await voteOrIgnore(async () => voteOnTracker(deps, params.slug, Number(params.number), await voterOf(deps, request, ipOf(request, server))))
        return redirect(backTo((body as Record<string, unknown> | undefined)?.back, `/tracker/${encodeURIComponent(params.slug)}/${params.number}`), 303)
      }),
    )
    .get('/roadmap/:slug', ({ params, query, request, server, path }) =>
      guarded(path, async () => {
        const project = await projectOf(params.slug)
        const f = roadmapFiltersFrom(query)
        const roadmap = await roadmapOf(deps, params.slug, f)
        const brand = await brandOf(project)
        const numbers = roadmap.columns.flatMap((c) => c.bugs.map((b) => b.report_number))
        const { voter, setCookie } = await pageVoterOf(deps, request, ipOf(request, server))
        const voted = roadmap.settings.show_upvotes ? await votedNumbers(deps, project.id, numbers, voter) : new Set<number>()
        const title = roadmap.settings.title || `${project.name} roadmap`
        const current = f.status && roadmap.settings.statuses.includes(f.status) ? f.status : roadmap.settings.statuses[0]!
        return publicPage(
          {
            meta: { title: documentTitle(title, brand), description: roadmap.settings.description || `What is being worked on in ${project.name}`, url: absolute(path), image: brand.logoUrl || undefined },
            brand,
            withVoteScript: roadmap.settings.show_upvotes,
            nav: await navOf(project, params.slug, 'roadmap'),
            setCookie,
          },
          <RoadmapPage slug={params.slug} title={title} brand={brand} description={roadmap.settings.description} showUpvotes={roadmap.settings.show_upvotes} columns={roadmap.columns} current={current} voted={voted} />,
        )
      }),
    )
    .post('/roadmap/:slug/:number/vote', ({ params, body, request, server, path, redirect }) =>
      guarded(path, async () => {
        if (!NUMBER.test(params.number)) throw new PageNotFound()
        if (limited(request, server, `/roadmap/${params.slug}/bugs/${params.number}/vote`)) return tooMany(path)
        await voteOrIgnore(async () => voteOnRoadmap(deps, params.slug, Number(params.number), await voterOf(deps, request, ipOf(request, server))))
        return redirect(backTo((body as Record<string, unknown> | undefined)?.back, `/roadmap/${encodeURIComponent(params.slug)}`), 303)
      }),
    )
    .get('/changelog/:slug', ({ params, path }) =>
      guarded(path, async () => {
        const project = await projectOf(params.slug)
        const brand = await brandOf(project)
        const entries = await publishedEntries(deps, params.slug)
        const feed = `/changelog/${encodeURIComponent(params.slug)}/feed.xml`
        const title = `${project.name} changelog`
        return publicPage(
          { meta: { title: documentTitle(title, brand), description: `Updates and fixes in ${project.name}`, url: absolute(path), image: brand.logoUrl || undefined }, brand, feed, nav: await navOf(project, params.slug, 'changelog') },
          <ChangelogPage slug={params.slug} title={title} brand={brand} entries={entries} />,
        )
      }),
    )
    .get('/changelog/:slug/feed.xml', ({ params, path }) =>
      guarded(path, async () => {
        const project = await projectOf(params.slug)
        const xml = changelogFeed({ baseUrl: config.publicUrl, slug: params.slug, name: project.name, entries: await publishedEntries(deps, params.slug), now: deps.clock.now() })
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
