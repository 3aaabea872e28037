import { useEffect, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { ProjectDetail, SetupStatus, TestReport } from '../api/types'
import { Async, Button, CodeBlock, CopyButton, Page, Section, Tabs, formatDate, toast, useAction } from '../components'
import { navigate, type RouteProps } from '../router'
import { deniedReason } from '../session'
import { KeyLine, PreviousKey } from './SdkKeys'
import { SNIPPETS, type Snippet, type SnippetContext, suggestedBudget } from './snippets'

/** `/projects/:slug`: the setup checklist until the first report arrives, then the report list. */
export function ProjectHome({ params }: RouteProps) {
  const project = useApi<ProjectDetail>(projectPath(params.slug!))
  const detail = project.data.value
  useEffect(() => {
    if (detail && detail.stats.total_reports > 0) navigate(`/projects/${encodeURIComponent(detail.slug)}/reports`, { replace: true })
  }, [detail])
  if (detail && detail.stats.total_reports > 0) return null
  return <Async resource={project}>{(p) => <SetupView project={p} />}</Async>
}

/** `/projects/:slug/setup`: the checklist, reachable at any time. */
export function ProjectSetup({ params }: RouteProps) {
  const project = useApi<ProjectDetail>(projectPath(params.slug!))
  return <Async resource={project}>{(p) => <SetupView project={p} />}</Async>
}

/** The snippets of one group of the table as tabs, one code block at a time. */
function SnippetTabs({ group, label, context, initial }: { group: Snippet['group']; label: string; context: SnippetContext; initial: string }) {
  const tabs = SNIPPETS.filter((x) => x.group === group)
  const [active, setActive] = useState(initial)
  const shown = tabs.find((x) => x.key === active) ?? tabs[0]!
  return (
    <Tabs label={label} active={shown.key} onChange={setActive} tabs={tabs}>
      <CodeBlock key={shown.key} label={shown.name} code={shown.code(context)} />
    </Tabs>
  )
}

/** A value to paste into a game, with its copy button. */
function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd class="keyline">
        <code>{value}</code>
        <CopyButton text={value} label={`Copy ${label.replace(/^./, (c) => c.toLowerCase())}`} />
      </dd>
    </>
  )
}

/** Shown when the SDK budget turned this game's players away in the last hour, with how to raise it. */
function BudgetWarning({ budget }: { budget: SetupStatus['sdk_budget'] }) {
  if (budget.refused_last_hour === 0) return null
  const perMinute = budget.per_minute ?? 0
  const env = `GLITCHBOX_RATE_LIMIT_PUBLIC=${suggestedBudget(perMinute)}`
  return (
    <div class="notice notice-warning stack" role="alert" style="margin-bottom:1rem">
      <p style="margin:0">
        <strong>
          The SDK rate limit refused {budget.refused_last_hour} request{budget.refused_last_hour === 1 ? '' : 's'} from this game in the last hour.
        </strong>{' '}
        This server takes {perMinute} SDK requests a minute per player address (<code>GLITCHBOX_RATE_LIMIT_PUBLIC</code>); players behind one address, at a LAN event, in a café or on
        a mobile carrier, share it, and refused reports are lost.
      </p>
      <p style="margin:0">
        To raise it, set <code>{env}</code> (or <code>0</code> to turn it off) in the server's environment and restart Glitchbox.
      </p>
    </div>
  )
}

/** Shown when GLITCHBOX_PUBLIC_URL is unset: the DSN then names localhost, which a game elsewhere cannot reach. */
function PublicUrlNotice({ publicUrl }: { publicUrl: SetupStatus['public_url'] | undefined }) {
  if (!publicUrl || publicUrl.set) return null
  return (
    <div class="notice notice-warning" role="note">
      <p style="margin:0">
        The DSN and file URLs use <code>{publicUrl.url}</code> because <code>GLITCHBOX_PUBLIC_URL</code> is not set: a game or a teammate on another machine cannot reach that address.
        Set <code>GLITCHBOX_PUBLIC_URL</code> to the address this server is opened at (for example <code>https://bugs.your-studio.com</code>) in the server's environment and restart
        Glitchbox.
      </p>
    </div>
  )
}

function SetupView({ project }: { project: ProjectDetail }) {
  const slug = project.slug
  const status = useApi<SetupStatus>(projectPath(slug, '/setup-status'))
  const origin = window.location.origin
  const context: SnippetContext = { origin, apiKey: project.api_key, dsn: project.dsn }
  const s = status.data.value
  const done = s ? s.has_reports && s.sdk_connected : false

  // Waits for the game's first report: checks again every 5 seconds while the page is open.
  useEffect(() => {
    if (done) return
    const t = setInterval(() => void status.reload(), 5000)
    return () => clearInterval(t)
  }, [done])

  const sendTest = useAction(
    async () => {
      const r = await api.post<TestReport>(projectPath(slug, '/send-test-report'))
      toast(`Test report #${r.report_number} filed`)
      await status.reload()
    },
    { toastErrors: true },
  )

  const sentryDone = Boolean(s && (s.has_sentry_events || s.has_sentry_sessions))
  const steps = [
    {
      key: 'key',
      title: 'Copy the SDK key',
      done: true,
      body: (
        <div class="stack">
          <KeyLine apiKey={project.api_key} />
          <PreviousKey keys={project} />
        </div>
      ),
    },
    {
      key: 'sdk',
      title: 'Point the game at this server',
      done: Boolean(s?.sdk_connected),
      body: (
        <div class="stack">
          <p class="muted">A Sentry SDK (Unity, Unreal, Godot, native, JavaScript) needs the DSN alone; the Bugnet-style SDK needs the base URL of this server and the SDK key.</p>
          <PublicUrlNotice publicUrl={s?.public_url} />
          <dl class="kv">
            {project.dsn && <Copyable label="DSN" value={project.dsn} />}
            <Copyable label="Base URL" value={origin} />
            <Copyable label="API key" value={project.api_key} />
          </dl>
          <h4>Sentry SDKs</h4>
          <SnippetTabs group="sentry" label="Sentry SDK snippet" context={context} initial="unity" />
          <h4>Bugnet-style SDK and HTTP</h4>
          <SnippetTabs group="glitchbox" label="Snippet" context={context} initial="curl" />
        </div>
      ),
    },
    {
      key: 'report',
      title: 'Receive the first report',
      done: Boolean(s?.has_reports),
      body: (
        <div class="stack">
          <p class="muted">
            {s?.first_report_at ? `First report received ${formatDate(s.first_report_at)}.` : 'Run the request above, or file a sample report from here to see how reports look.'}
            {s?.has_reports && !s.reports_from_sdk && ' No report has come from the SDK yet.'}
          </p>
          <div class="row">
            <Button variant="primary" busy={sendTest.busy} onClick={sendTest.run} reason={deniedReason('bugs.create')}>
              Send test report
            </Button>
            {s?.has_reports && <a href={`/projects/${encodeURIComponent(slug)}/reports`}>Open the report list</a>}
          </div>
        </div>
      ),
    },
    {
      key: 'sentry',
      title: 'Receive the first Sentry event (with a Sentry SDK)',
      done: sentryDone,
      body: (
        <p class="muted">
          {s?.has_sentry_events
            ? 'A Sentry event, minidump or Unreal crash report has arrived.'
            : s?.has_sentry_sessions
              ? 'Sentry sessions arrive; no error or crash yet.'
              : `Errors, crashes (minidumps, Unreal's crash reporter) and sessions of a game with a Sentry SDK arrive at /api/${project.dsn_id ?? '{dsn_id}'}/… on this server.`}
        </p>
      ),
    },
    {
      key: 'session',
      title: 'Track play sessions',
      done: Boolean(s?.has_sessions),
      body: (
        <div class="stack">
          <p class="muted">
            {s?.first_session_at ? `First session ${formatDate(s.first_session_at)}. ` : ''}
            Sessions give crash-free rates, release health and player analytics. Sentry SDKs send them on their own; the Bugnet-style SDK starts one when the game starts and ends it
            when the game quits (<code>crashed: true</code> after a crash):
          </p>
          <SnippetTabs group="sessions" label="Session snippet" context={context} initial="sessions" />
        </div>
      ),
    },
  ]

  return (
    <Page title={`Set up ${project.name}`} subtitle="Connect your game to start receiving bug reports." actions={<a href={`/projects/${encodeURIComponent(slug)}/settings`}>Project settings</a>}>
      <Section title="Setup checklist" actions={<Button size="sm" onClick={() => void status.reload()} busy={status.loading.value}>Check again</Button>}>
        {status.error.value && !s && <p class="form-error" role="alert">{status.error.value.message}</p>}
        {s && <BudgetWarning budget={s.sdk_budget} />}
        <ol class="checklist">
          {steps.map((step) => (
            <li key={step.key}>
              <span class={`checkmark${step.done ? ' checkmark-done' : ''}`} aria-hidden="true">
                {step.done ? '✓' : ''}
              </span>
              <div class="stack">
                <h3>
                  {step.title}
                  <span class="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                </h3>
                {step.body}
              </div>
            </li>
          ))}
        </ol>
      </Section>
    </Page>
  )
}
