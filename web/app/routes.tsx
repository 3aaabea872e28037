/** The dashboard's route table: the first matching pattern wins. */
import type { Route } from './router'
import { ForgotPassword, Login, ResetPassword, Signup } from './auth/AuthScreens'
import { VerifyEmail } from './auth/VerifyEmail'
import { NewProject } from './projects/NewProject'
import { ProjectList } from './projects/ProjectList'
import { ProjectHome, ProjectSetup } from './projects/Setup'
import { AuditLog } from './audit/AuditLog'
import { ChangelogSettings } from './settings/Changelog'
import { GeneralSettings } from './settings/General'
import { NotificationSettings } from './settings/Notifications'
import { PublicPagesSettings } from './settings/PublicPages'
import { SettingsIndex } from './settings/SettingsFrame'
import { WebhookSettings } from './settings/Webhooks'
import { DebugFilesSettings } from './debug-files/DebugFiles'
import { AccountPage } from './account/Account'
import { Billing, BillingSuccess } from './billing/Billing'
import { AcceptInvite } from './team/AcceptInvite'
import { Team } from './team/Team'
import { ReportListPage } from './reports/ReportListPage'
import { ReportPage } from './reports/ReportPage'
import { ImportPage } from './workflow/ImportPage'
import { NewReport } from './workflow/NewReport'
import { WorkflowSettings } from './workflow/WorkflowSettings'
import { AnalyticsOverview } from './analytics/Overview'
import { CrashGroupsPage } from './analytics/Crashes'
import { PerformancePage } from './analytics/Performance'
import { PlayerPage, PlayersPage } from './analytics/Players'
import { ReleaseHealthPage } from './analytics/Releases'
import { TelemetryPage } from './analytics/Telemetry'
import { IntegrationsPage } from './integrations/IntegrationsPage'
import { SteamPage } from './integrations/Steam'
import { StoreReviewsPage } from './integrations/StoreReviews'

const authRoutes: Route[] = [
  { path: '/login', component: Login, public: true, bare: true, title: 'Sign in' },
  { path: '/signup', component: Signup, public: true, bare: true, title: 'Sign up' },
  { path: '/forgot-password', component: ForgotPassword, public: true, bare: true, title: 'Reset your password' },
  { path: '/reset-password', component: ResetPassword, public: true, bare: true, title: 'Choose a new password' },
  { path: '/verify-email', component: VerifyEmail, public: true, bare: true, title: 'Email verification' },
]

const projectRoutes: Route[] = [
  { path: '/', component: ProjectList, title: 'Projects' },
  { path: '/projects', component: ProjectList, title: 'Projects' },
  { path: '/projects/new', component: NewProject, title: 'New project' },
  { path: '/projects/:slug', component: ProjectHome, title: 'Project' },
  { path: '/projects/:slug/setup', component: ProjectSetup, title: 'Setup' },
]

const accountRoutes: Route[] = [
  { path: '/account', component: AccountPage, title: 'Your account' },
  { path: '/team', component: Team, title: 'Team' },
  { path: '/invite', component: AcceptInvite, title: 'Join a team' },
  { path: '/billing', component: Billing, title: 'Billing' },
  { path: '/billing/success', component: BillingSuccess, title: 'Billing' },
]

const settingsRoutes: Route[] = [
  { path: '/projects/:slug/settings', component: SettingsIndex, title: 'Settings' },
  { path: '/projects/:slug/settings/general', component: GeneralSettings, title: 'General settings' },
  { path: '/projects/:slug/settings/public-pages', component: PublicPagesSettings, title: 'Public pages' },
  { path: '/projects/:slug/settings/changelog', component: ChangelogSettings, title: 'Changelog' },
  { path: '/projects/:slug/settings/webhooks', component: WebhookSettings, title: 'Webhooks' },
  { path: '/projects/:slug/settings/notifications', component: NotificationSettings, title: 'Notifications' },
  { path: '/projects/:slug/settings/audit', component: AuditLog, title: 'Audit log' },
  { path: '/projects/:slug/settings/debug-files', component: DebugFilesSettings, title: 'Debug files' },
]

// Report screens (web/app/reports/, owned by the report-screens developer): add their routes here.
const reportRoutes: Route[] = [
  { path: '/projects/:slug/reports', component: ReportListPage, title: 'Reports' },
  { path: '/projects/:slug/reports/:number', component: ReportPage, title: (p) => `Report #${p.number}` },
]

// Workflow screens (web/app/workflow/); /reports/new must come before /reports/:number.
const workflowRoutes: Route[] = [
  { path: '/projects/:slug/reports/new', component: NewReport, title: 'New report' },
  { path: '/projects/:slug/import', component: ImportPage, title: 'Import reports' },
  { path: '/projects/:slug/settings/workflow', component: WorkflowSettings, title: 'Workflow settings' },
]

// Integration screens (web/app/integrations/).
const integrationRoutes: Route[] = [
  { path: '/projects/:slug/integrations', component: IntegrationsPage, title: 'Integrations' },
  { path: '/projects/:slug/settings/integrations', component: IntegrationsPage, title: 'Integrations' },
  { path: '/projects/:slug/integrations/steam', component: SteamPage, title: 'Steam reviews' },
  { path: '/projects/:slug/store-reviews', component: StoreReviewsPage, title: 'Store reviews' },
]

// Analytics screens (web/app/analytics/).
const analyticsRoutes: Route[] = [
  { path: '/projects/:slug/analytics', component: AnalyticsOverview, title: 'Analytics' },
  { path: '/projects/:slug/analytics/releases', component: ReleaseHealthPage, title: 'Release health' },
  { path: '/projects/:slug/analytics/crashes', component: CrashGroupsPage, title: 'Crash groups' },
  { path: '/projects/:slug/analytics/players', component: PlayersPage, title: 'Players' },
  { path: '/projects/:slug/analytics/players/:playerId', component: PlayerPage, title: (p) => `Player ${p.playerId}` },
  { path: '/projects/:slug/analytics/telemetry', component: TelemetryPage, title: 'Telemetry' },
  { path: '/projects/:slug/analytics/performance', component: PerformancePage, title: 'Performance' },
]

export const routes: Route[] = [...authRoutes, ...projectRoutes, ...accountRoutes, ...settingsRoutes, ...workflowRoutes, ...reportRoutes, ...integrationRoutes, ...analyticsRoutes]
