import type { NotificationPreferences } from '../api/types'
import { Checkbox } from '../components'
import type { RouteProps } from '../router'
import { SettingsForm } from './SettingsForm'
import { SettingsFrame } from './SettingsFrame'

const LABELS: Record<keyof NotificationPreferences, { label: string; hint: string }> = {
  email_bug_created: { label: 'New reports', hint: 'An email when a report is filed in one of your projects.' },
  email_bug_status: { label: 'Status changes', hint: 'When the status of a report you follow changes.' },
  email_bug_assigned: { label: 'Assignments', hint: 'When a report is assigned to you.' },
  email_bug_commented: { label: 'Comments', hint: 'When someone comments on a report you follow.' },
  email_weekly_digest: { label: 'Weekly digest', hint: 'A summary of the week every Monday.' },
}

/** Your own email preferences (they apply to every project). */
export function NotificationPreferencesForm() {
  return (
    <SettingsForm<NotificationPreferences>
      path="/notifications/preferences"
      title="Email notifications"
      description="Your own preferences: they apply to every project of the account."
      permission={null}
      savedMessage="Notification preferences saved"
      fields={(v, set) => (
        <>
          {(Object.keys(LABELS) as (keyof NotificationPreferences)[]).map((k) => (
            <Checkbox key={k} label={LABELS[k].label} hint={LABELS[k].hint} checked={v[k]} onChecked={(x) => set(k, x)} />
          ))}
        </>
      )}
    />
  )
}

/** `/projects/:slug/settings/notifications`. */
export function NotificationSettings({ params }: RouteProps) {
  return (
    <SettingsFrame slug={params.slug!} title="Notifications">
      <NotificationPreferencesForm />
    </SettingsFrame>
  )
}
