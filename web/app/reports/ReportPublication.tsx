import { useEffect, useState } from 'preact/hooks'
import { messageOf } from '../api/client'
import { Button, Checkbox, toast } from '../components'
import { usePermissions } from './project-lookups'
import type { ReportDetail, UpdateReportBody } from './report-types'
import { reportsApi } from './reports-api'

type Bug = ReportDetail['bug']

const MODE = { all: 'every report', triaged: 'reports the team has touched', manual: 'only reports published one by one' } as const

/** Why the public tracker shows the report or not, in a sentence (reasons from the report read's `public_page`). */
function explain(bug: Bug): string {
  const p = bug.public_page
  const mode = `The tracker shows ${MODE[p.publish]}`
  const why: Record<Bug['public_page']['reason'], string> = {
    published: 'Published: shown whatever the tracker’s publish mode.',
    unpublished: 'Unpublished: never shown.',
    private: 'Private reports are never shown.',
    mode_all: `${mode}.`,
    triaged: `${mode}, and the team has touched this one.`,
    not_triaged: `${mode}: change its status, label it, reply publicly or publish it to show it.`,
    manual: `${mode}: publish it to show it.`,
    auto_filed: 'Auto-filed reports stay team-only unless the tracker includes them: publish it to show it.',
  }
  return why[p.reason]
}

/** The report's place on the public pages: shown or not and why, Publish / Unpublish, and the roadmap flag. */
export function ReportPublication({ slug, bug, onSaved }: { slug: string; bug: Bug; onSaved: () => void }) {
  const [saving, setSaving] = useState<string | null>(null)
  // The roadmap box shows the value just chosen until the report is read again (as ReportControls does).
  const [roadmap, setRoadmap] = useState<boolean | null>(null)
  useEffect(() => setRoadmap(null), [bug])
  const { reason } = usePermissions(slug)
  const editReason = reason('bugs.edit')
  const save = async (what: string, body: UpdateReportBody, done: string) => {
    setSaving(what)
    if (body.on_roadmap !== undefined) setRoadmap(body.on_roadmap)
    try {
      await reportsApi.update(slug, bug.report_number, body)
      toast(done)
    } catch (err) {
      setRoadmap(null)
      toast(messageOf(err), 'error')
    } finally {
      setSaving(null)
      onSaved()
    }
  }
  const p = bug.public_page
  return (
    <section class="card report-publication" aria-labelledby="publication-h">
      <h2 id="publication-h">Public pages</h2>
      <p role="status">
        <strong>{!p.tracker_enabled ? 'The public tracker is off.' : p.shown ? 'Shown on the public tracker.' : 'Not on the public tracker.'}</strong> <span class="muted">{explain(bug)}</span>
      </p>
      <div class="row">
        {bug.published !== true && (
          <Button size="sm" variant="primary" busy={saving === 'publish'} reason={editReason} onClick={() => save('publish', { published: true }, 'Report published')}>
            Publish
          </Button>
        )}
        {bug.published !== false && (
          <Button size="sm" busy={saving === 'unpublish'} reason={editReason} onClick={() => save('unpublish', { published: false }, 'Report unpublished')}>
            Unpublish
          </Button>
        )}
        {bug.published !== null && (
          <Button size="sm" variant="ghost" busy={saving === 'mode'} reason={editReason} onClick={() => save('mode', { published: null }, 'The report follows the publish mode')}>
            Follow the publish mode
          </Button>
        )}
      </div>
      <Checkbox
        label="On the roadmap"
        hint="Shown on the public roadmap (unless the roadmap follows a label)."
        checked={roadmap ?? bug.on_roadmap}
        disabled={Boolean(editReason) || saving === 'roadmap'}
        title={editReason}
        onChecked={(v) => save('roadmap', { on_roadmap: v }, v ? 'Put on the roadmap' : 'Taken off the roadmap')}
      />
    </section>
  )
}
