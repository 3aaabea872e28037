import type { Seam } from '../../db/client'
import type { Project } from '../projects/projects.repository'
import type { Account } from '../auth/accounts.repository'
import { featuresOf } from '../auth/plans'
import { widgetThemeFor } from '../settings/settings.service'

/** What the SDK should capture; session capture only where the plan (tier 3) carries it; the widget theme in effect. */
export async function sdkSettingsOf(db: Seam, project: Project, account: Account) {
  return {
    screenshot_capture: project.screenshotCapture,
    session_capture: project.sessionCapture && featuresOf(account.plan).session_capture,
    auto_file_errors: project.autoFileErrors,
    capture_editor_errors: project.captureEditorErrors,
    capture_warnings: project.captureWarnings,
    widget_theme: await widgetThemeFor(db, project.id, account.plan),
  }
}
