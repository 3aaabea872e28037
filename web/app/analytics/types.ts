// Answers of the analytics routes, typed from the server functions that build them (type-only imports).
import type { badDeploy, crashAnalytics, crashGroups } from '../../../src/modules/analytics/crash.service'
import type { customersOverview, listPlayers, playerReports, playerSessions, readPlayer } from '../../../src/modules/analytics/players.service'
import type { perfSummary, reportPerf, reportReplays } from '../../../src/modules/analytics/perf.service'
import type { releaseHealth, versionHealth } from '../../../src/modules/analytics/release-health.service'
import type { eventDetails, eventsByDay, eventsSummary } from '../../../src/modules/analytics/telemetry.service'
import type { dashboard, usage } from '../../../src/modules/analytics/usage.service'
import type { sdkBudgetOf } from '../../../src/http/sdk-refusals'

/** What every answer read from the analytics rollups adds: how fresh its numbers are (the routes add it after catching up). */
export type Fresh = { fresh_as_of: string }

export type CrashAnalytics = Awaited<ReturnType<typeof crashAnalytics>> & Fresh
export type BadDeploy = Awaited<ReturnType<typeof badDeploy>> & Fresh
export type CrashGroup = Awaited<ReturnType<typeof crashGroups>>[number]
export type ReleaseHealth = Awaited<ReturnType<typeof releaseHealth>> & Fresh
export type VersionHealth = Awaited<ReturnType<typeof versionHealth>> & Fresh
export type PlayerList = Awaited<ReturnType<typeof listPlayers>>
export type Player = Awaited<ReturnType<typeof readPlayer>>
export type PlayerSessions = Awaited<ReturnType<typeof playerSessions>>
export type PlayerBugs = Awaited<ReturnType<typeof playerReports>>
export type CustomersOverview = Awaited<ReturnType<typeof customersOverview>>
export type PerfSummary = Awaited<ReturnType<typeof perfSummary>>
export type ReportPerf = Awaited<ReturnType<typeof reportPerf>>
export type ReportReplays = Awaited<ReturnType<typeof reportReplays>>
export type EventsByDay = Awaited<ReturnType<typeof eventsByDay>>
export type EventsSummary = Awaited<ReturnType<typeof eventsSummary>>
export type EventDetails = Awaited<ReturnType<typeof eventDetails>>
export type Dashboard = Awaited<ReturnType<typeof dashboard>> & Fresh
export type Usage = Awaited<ReturnType<typeof usage>> & Fresh & { sdk_budget?: ReturnType<typeof sdkBudgetOf> }
