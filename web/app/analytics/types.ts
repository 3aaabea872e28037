// Answers of the analytics routes, typed from the server functions that build them (type-only imports).
import type { badDeploy, crashAnalytics, crashGroups } from '../../../src/modules/analytics/crash.service'
import type { customersOverview, listPlayers, playerReports, playerSessions, readPlayer } from '../../../src/modules/analytics/players.service'
import type { perfSummary, reportPerf, reportReplays } from '../../../src/modules/analytics/perf.service'
import type { releaseHealth, versionHealth } from '../../../src/modules/analytics/release-health.service'
import type { eventDetails, eventsByDay, eventsSummary } from '../../../src/modules/analytics/telemetry.service'
import type { dashboard, usage } from '../../../src/modules/analytics/usage.service'

/** What every answer read from the analytics rollups adds: how fresh its numbers are (the routes add it after catching up). */
export type Fresh = { fresh_as_of: string }

export type CrashAnalytics = ReturnType<typeof crashAnalytics> & Fresh
export type BadDeploy = ReturnType<typeof badDeploy> & Fresh
export type CrashGroup = ReturnType<typeof crashGroups>[number]
export type ReleaseHealth = ReturnType<typeof releaseHealth> & Fresh
export type VersionHealth = ReturnType<typeof versionHealth> & Fresh
export type PlayerList = ReturnType<typeof listPlayers>
export type Player = ReturnType<typeof readPlayer>
export type PlayerSessions = ReturnType<typeof playerSessions>
export type PlayerBugs = ReturnType<typeof playerReports>
export type CustomersOverview = ReturnType<typeof customersOverview>
export type PerfSummary = ReturnType<typeof perfSummary>
export type ReportPerf = ReturnType<typeof reportPerf>
export type ReportReplays = ReturnType<typeof reportReplays>
export type EventsByDay = ReturnType<typeof eventsByDay>
export type EventsSummary = ReturnType<typeof eventsSummary>
export type EventDetails = ReturnType<typeof eventDetails>
export type Dashboard = ReturnType<typeof dashboard> & Fresh
export type Usage = ReturnType<typeof usage> & Fresh
