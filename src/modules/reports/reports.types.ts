// A report's closed vocabularies, apart from the table so other domains (schemas, providers, the web
// app) can name them without importing the reports table.
export const STATUSES = ['open', 'in_progress', 'resolved', 'closed', 'wont_fix'] as const
export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const
export const CATEGORIES = ['crash', 'visual', 'gameplay', 'performance', 'audio', 'ui', 'network', 'other'] as const
// user: written by a person (the SDK's player form, the tracker, the team); system: captured by the game
// on its own; discord: written by a player through the studio's Discord /report (CONTRACT.md).
export const SOURCES = ['user', 'system', 'discord'] as const
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const
export type Status = (typeof STATUSES)[number]
export type Priority = (typeof PRIORITIES)[number]
export type Category = (typeof CATEGORIES)[number]
export type Source = (typeof SOURCES)[number]
