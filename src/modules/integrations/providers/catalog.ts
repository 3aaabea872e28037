import { airtable } from './airtable'
import { appStore } from './app-store'
import { asana } from './asana'
import { clickup } from './clickup'
import { googlePlay } from './google-play'
import { jira } from './jira'
import { linear } from './linear'
import { monday } from './monday'
import { notion } from './notion'
import { opsgenie } from './opsgenie'
import { pagerduty } from './pagerduty'
import type { Provider, ProviderInfo } from './provider.types'
import { sentry } from './sentry'
import { slack } from './slack'
import { teams } from './teams'
import { trello } from './trello'

/** Providers of CONTRACT.md not built yet: listed (the dashboard shows what each will need), not connectable. */
const PLANNED: ProviderInfo[] = [
]

/** Providers that can be connected, by key. */
export const PROVIDERS: Record<string, Provider> = Object.fromEntries([slack, teams, pagerduty, opsgenie, linear, jira, clickup, asana, trello, airtable, monday, notion, sentry, googlePlay, appStore].map((p) => [p.key, p]))

/** All 13 provider keys of CONTRACT.md in its order (chat, alerting, trackers, crash link, stores). */
const ORDER = ['slack', 'teams', 'pagerduty', 'opsgenie', 'linear', 'jira', 'clickup', 'asana', 'trello', 'airtable', 'monday', 'notion', 'sentry', 'google_play', 'app_store']
const ALL: ProviderInfo[] = [...Object.values(PROVIDERS), ...PLANNED]

/** Every provider's info, connectable or not. */
export const providerInfos = (): ProviderInfo[] => ORDER.map((k) => ALL.find((p) => p.key === k)!)

/** The info of a provider key, or undefined for an unknown key. */
export const providerInfo = (key: string): ProviderInfo | undefined => ALL.find((p) => p.key === key)
