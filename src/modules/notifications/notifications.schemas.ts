import * as z from 'zod'

/** API name → column of notification_preferences. */
export const PREFERENCES = {
  email_bug_created: 'emailBugCreated',
  email_bug_status: 'emailBugStatus',
  email_bug_assigned: 'emailBugAssigned',
  email_bug_commented: 'emailBugCommented',
  email_weekly_digest: 'emailWeeklyDigest',
} as const
export type PreferenceKey = keyof typeof PREFERENCES
export const PREFERENCE_KEYS = Object.keys(PREFERENCES) as PreferenceKey[]
export const isPreferenceKey = (k: string): k is PreferenceKey => Object.hasOwn(PREFERENCES, k)

export const updatePreferencesBody = z.object({
  email_bug_created: z.boolean().optional(),
  email_bug_status: z.boolean().optional(),
  email_bug_assigned: z.boolean().optional(),
  email_bug_commented: z.boolean().optional(),
  email_weekly_digest: z.boolean().optional(),
})
export type UpdatePreferencesBody = z.infer<typeof updatePreferencesBody>

export const unsubscribeQuery = z.object({ token: z.string().max(500).optional() })
export const unsubscribeBody = z.object({ token: z.string().max(500) })
