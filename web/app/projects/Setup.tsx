import { useEffect, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { ProjectDetail, SetupStatus, TestReport } from '../api/types'
import { Async, Button, CodeBlock, CopyButton, Page, Section, Tabs, formatDate, toast, useAction } from '../components'
import { navigate, type RouteProps } from '../router'
import { deniedReason } from '../session'
import { curlSubmit, httpSubmit, sdkConfig, widgetTag } from './snippets'

/** The snippet tabs: each tab's label, what its code block is called, and the code it shows. */
const SNIPPETS = [
  { key: 'curl', label: 'curl', name: 'curl request', code: curlSubmit },
  { key: 'http', label: 'HTTP', name: 'HTTP request', code: httpSubmit },
  { key: 'config', label: 'SDK config', name: 'SDK configuration', code: sdkConfig },
  { key: 'widget', label: 'Web widget', name: 'widget script tag', code: widgetTag },
]

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

function SetupView({ project }: { project: ProjectDetail }) {
  const slug = project.slug
  const status = useApi<SetupStatus>(projectPath(slug, '/setup-status'))
  const origin = window.location.origin
  const [snippet, setSnippet] = useState('curl')
  const shown = SNIPPETS.find((x) => x.key === snippet)!
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

  const steps = [
    { key: 'key', title: 'Copy the SDK key', done: true, body: <KeyLine apiKey={project.api_key} /> },
    {
      key: 'sdk',
      title: 'Point the game at this server',
      done: Boolean(s?.sdk_connected),
      body: (
        <div class="stack">
          <p class="muted">An engine SDK needs two settings: the base URL of this server and the project's SDK key.</p>
          <dl class="kv">
            <dt>Base URL</dt>
            <dd class="keyline">
              <code>{origin}</code>
              <CopyButton text={origin} label="Copy base URL" />
            </dd>
            <dt>API key</dt>
            <dd class="keyline">
              <code>{project.api_key}</code>
              <CopyButton text={project.api_key} label="Copy API key" />
            </dd>
          </dl>
          <Tabs label="Snippet" active={snippet} onChange={setSnippet} tabs={SNIPPETS}>
            <CodeBlock key={snippet} label={shown.name} code={shown.code(origin, project.api_key)} />
          </Tabs>
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
      key: 'session',
      title: 'Track play sessions (optional)',
      done: Boolean(s?.has_sessions),
      body: <p class="muted">{s?.first_session_at ? `First session ${formatDate(s.first_session_at)}.` : 'SDKs that call /api/sessions/start and /api/sessions/end give crash-free rates and player analytics.'}</p>,
    },
  ]

  return (
    <Page title={`Set up ${project.name}`} subtitle="Connect your game to start receiving bug reports." actions={<a href={`/projects/${encodeURIComponent(slug)}/settings`}>Project settings</a>}>
      <Section title="Setup checklist" actions={<Button size="sm" onClick={() => void status.reload()} busy={status.loading.value}>Check again</Button>}>
        {status.error.value && !s && <p class="form-error" role="alert">{status.error.value.message}</p>}
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

/** The SDK key with a copy button. */
export function KeyLine({ apiKey }: { apiKey: string }) {
  return (
    <div class="keyline">
      <code aria-label="SDK key">{apiKey}</code>
      <CopyButton text={apiKey} label="Copy SDK key" />
    </div>
  )
}
