import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import type { Account, Branding, RoadmapSettings, TrackerSettings, WidgetSettings } from '../api/types'
import type { Label } from '../reports/report-types'
import { useApi } from '../api/resource'
import { Button, Checkbox, Select, TextArea, TextField, toast, useAction } from '../components'
import type { RouteProps } from '../router'
import { featureOffReason } from '../billing/plan-words'
import { deniedReason, showPlans } from '../session'
import { ColorField, SettingsForm } from './SettingsForm'
import { SettingsFrame } from './SettingsFrame'

const STATUS_LABELS: Record<RoadmapSettings['statuses'][number], string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
  wont_fix: "Won't fix",
}

/** The roadmap source `published` in the one "shows" list, beside the flag and the labels (label ids are UUIDs, so never this). */
const PUBLISHED = 'published'

function Preview({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} target="_blank" rel="noopener" class="btn btn-secondary btn-sm">
      {label} <span aria-hidden="true">↗</span>
      <span class="sr-only">(opens in a new tab)</span>
    </a>
  )
}

/** `/projects/:slug/settings/public-pages`: tracker, roadmap, branding and widget, each with a live preview link. */
export function PublicPagesSettings({ params }: RouteProps) {
  const slug = params.slug!
  const enc = encodeURIComponent(slug)
  const labels = useApi<Label[]>(projectPath(slug, '/labels'))
  return (
    <SettingsFrame slug={slug} title="Public pages">
      <SettingsForm<TrackerSettings>
        path={projectPath(slug, '/tracker-settings')}
        title="Public tracker"
        description="A public list of reports players can search and upvote. Private reports and internal comments never appear."
        actions={<Preview href={`/tracker/${enc}`} label="Preview tracker" />}
        fields={(v, set) => (
          <>
            <Checkbox label="Enable the public tracker" checked={v.enabled} onChecked={(x) => set('enabled', x)} />
            <Select
              label="Publish"
              value={v.publish}
              onValue={(x) => set('publish', x as TrackerSettings['publish'])}
              hint="Publish or Unpublish on a report (or in the bulk bar) overrides this for that report."
              options={[
                { value: 'triaged', label: 'Reports the team has touched (status changed, labelled, public reply)' },
                { value: 'all', label: 'Every report that is not private' },
                { value: 'manual', label: 'Only reports published one by one' },
              ]}
            />
            <Checkbox
              label="Include auto-filed reports"
              hint="Reports with a stack trace, from an SDK's automatic capture or a Sentry event. Off: they stay team-only unless published."
              checked={v.include_auto_filed}
              onChecked={(x) => set('include_auto_filed', x)}
            />
            <TextField label="Tracker title" maxLength={200} value={v.page_title} onValue={(x) => set('page_title', x)} />
            <TextArea label="Tracker description" rows={3} value={v.page_description} onValue={(x) => set('page_description', x)} />
            <div class="grid-2">
              <ColorField label="Tracker accent color" value={v.accent_color} onValue={(x) => set('accent_color', x)} />
              <TextField label="Tracker logo URL" type="url" value={v.logo_url} onValue={(x) => set('logo_url', x)} />
            </div>
            <div class="grid-2">
              <Checkbox label="Allow search" checked={v.allow_search} onChecked={(x) => set('allow_search', x)} />
              <Checkbox label="Allow upvotes" checked={v.allow_upvotes} onChecked={(x) => set('allow_upvotes', x)} />
              <Checkbox label="Show categories" checked={v.show_categories} onChecked={(x) => set('show_categories', x)} />
              <Checkbox label="Show priority" checked={v.show_priority} onChecked={(x) => set('show_priority', x)} />
              <Checkbox label="Show the status filter" checked={v.show_status_filter} onChecked={(x) => set('show_status_filter', x)} />
            </div>
            <TextArea label="Custom CSS" rows={5} class="mono" value={v.custom_css} onValue={(x) => set('custom_css', x)} hint="Up to 20 KB, added to the tracker's pages." />
          </>
        )}
      />
      <SettingsForm<RoadmapSettings>
        path={projectPath(slug, '/roadmap-settings')}
        title="Roadmap"
        description="One column per status you choose, with the reports you put on the roadmap (or that carry a label you choose), or every report the tracker publishes."
        actions={<Preview href={`/roadmap/${enc}`} label="Preview roadmap" />}
        fields={(v, set) => (
          <>
            <Checkbox label="Enable the roadmap" checked={v.enabled} onChecked={(x) => set('enabled', x)} />
            <Select
              label="The roadmap shows"
              value={v.source === 'published' ? PUBLISHED : v.label_id}
              onValue={(x) => {
                set('source', x === PUBLISHED ? 'published' : 'curated')
                if (x !== PUBLISHED) set('label_id', x)
              }}
              options={[
                { value: '', label: 'Reports put on the roadmap (“On the roadmap” on a report)' },
                ...(labels.data.value ?? []).map((l) => ({ value: l.id, label: `Reports labelled “${l.name}”` })),
                { value: PUBLISHED, label: 'Every report the tracker publishes, in the columns shown' },
              ]}
            />
            <TextField label="Roadmap title" maxLength={200} value={v.title} onValue={(x) => set('title', x)} />
            <TextArea label="Roadmap description" rows={3} value={v.description} onValue={(x) => set('description', x)} />
            <fieldset>
              <legend>Columns shown</legend>
              <div class="grid-2">
                {(Object.keys(STATUS_LABELS) as RoadmapSettings['statuses']).map((s) => (
                  <Checkbox
                    key={s}
                    label={STATUS_LABELS[s]}
                    checked={v.statuses.includes(s)}
                    onChecked={(on) => set('statuses', on ? (Object.keys(STATUS_LABELS) as RoadmapSettings['statuses']).filter((x) => x === s || v.statuses.includes(x)) : v.statuses.filter((x) => x !== s))}
                  />
                ))}
              </div>
            </fieldset>
            <Checkbox label="Show upvotes on the roadmap" checked={v.show_upvotes} onChecked={(x) => set('show_upvotes', x)} />
          </>
        )}
      />
      <SettingsForm<Branding>
        path={projectPath(slug, '/branding')}
        title="Branding"
        description="Company name, logo and colors of the public pages."
        actions={<Preview href={`/changelog/${enc}`} label="Preview changelog" />}
        fields={(v, set) => (
          <>
            <div class="grid-2">
              <TextField label="Company name" maxLength={200} value={v.company_name} onValue={(x) => set('company_name', x)} />
              <TextField label="Support email" type="email" value={v.support_email} onValue={(x) => set('support_email', x)} />
            </div>
            <TextField label="Company logo URL" type="url" value={v.logo_url} onValue={(x) => set('logo_url', x)} />
            <div class="grid-2">
              <ColorField label="Primary color" value={v.primary_color} onValue={(x) => set('primary_color', x)} />
              <ColorField label="Accent color" value={v.accent_color} onValue={(x) => set('accent_color', x)} />
            </div>
          </>
        )}
      />
      <WidgetSection slug={slug} />
    </SettingsFrame>
  )
}

type Theme = WidgetSettings['theme']

function WidgetSection({ slug }: { slug: string }) {
  const [version, setVersion] = useState(0)
  const account = useApi<Account>('/account')
  const acc = account.data.value
  const locked = acc && !acc.features.widget_themes ? featureOffReason({ billing: showPlans.value, feature: 'Custom widget themes', plan: 'Pro', current: acc.plan.name }) : undefined
  return (
    <SettingsForm<WidgetSettings>
      key={version}
      lockedReason={locked}
      path={projectPath(slug, '/widget-settings')}
      title="Report widget"
      description="The “Report a bug” button of web games and the SDK's in-game form."
      fields={(v, set) => {
        const theme = (k: keyof Theme, x: string) => set('theme', { ...v.theme, [k]: x } as Theme)
        return (
          <>
            <TextField label="Button text" maxLength={50} value={v.button_text} onValue={(x) => set('button_text', x)} />
            <div class="grid-2">
              <ColorField label="Widget primary color" optional={false} value={v.theme.primary_color} onValue={(x) => theme('primary_color', x)} />
              <ColorField label="Widget background color" optional={false} value={v.theme.background_color} onValue={(x) => theme('background_color', x)} />
              <ColorField label="Widget text color" optional={false} value={v.theme.text_color} onValue={(x) => theme('text_color', x)} />
              <Select
                label="Button position"
                value={v.theme.position}
                onValue={(x) => theme('position', x)}
                options={[
                  { value: 'bottom-right', label: 'Bottom right' },
                  { value: 'bottom-left', label: 'Bottom left' },
                  { value: 'top-right', label: 'Top right' },
                  { value: 'top-left', label: 'Top left' },
                ]}
              />
              <Select
                label="Widget mode"
                value={v.theme.mode}
                onValue={(x) => theme('mode', x)}
                options={[
                  { value: 'light', label: 'Light' },
                  { value: 'dark', label: 'Dark' },
                ]}
              />
            </div>
            <TextField label="Background image URL" type="url" value={v.background_image_url} onValue={(x) => set('background_image_url', x)} />
            <BackgroundUpload slug={slug} locked={locked} onUploaded={() => setVersion((n) => n + 1)} />
            <div class="widget-preview" style={{ background: v.theme.background_color, color: v.theme.text_color }} aria-label="Widget preview" role="img">
              <span class="widget-preview-button" style={{ background: v.theme.primary_color }}>
                {v.button_text || 'Report a bug'}
              </span>
            </div>
          </>
        )
      }}
    />
  )
}

function BackgroundUpload({ slug, locked, onUploaded }: { slug: string; locked?: string; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null)
  const reason = deniedReason('project.settings') ?? locked
  const { busy, run } = useAction(
    async (image: File) => {
      const form = new FormData()
      form.set('file', image)
      await api.post(projectPath(slug, '/widget-settings/background'), form)
      toast('Background image uploaded')
      onUploaded()
    },
    { toastErrors: true },
  )
  return (
    <div class="field">
      <label for="widget-bg-file">Upload a background image</label>
      <div class="row">
        <input id="widget-bg-file" type="file" accept="image/*" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        <Button size="sm" onClick={() => file && run(file)} busy={busy} disabled={!file} reason={reason}>
          Upload
        </Button>
      </div>
    </div>
  )
}
