import type { RouteProps } from '../router'
import { SettingsFrame } from '../settings/SettingsFrame'
import { AlertsSection } from './AlertsSection'
import { CustomFieldsSection } from './CustomFieldsSection'
import { SlaSection } from './SlaSection'
import { TemplatesSection } from './TemplatesSection'

/** `/projects/:slug/settings/workflow`: templates, custom fields, SLA and alert rules. */
export function WorkflowSettings({ params }: RouteProps) {
  const slug = params.slug!
  return (
    <SettingsFrame slug={slug} title="Workflow">
      <TemplatesSection slug={slug} />
      <CustomFieldsSection slug={slug} />
      <SlaSection slug={slug} />
      <AlertsSection slug={slug} />
    </SettingsFrame>
  )
}
