import * as z from 'zod'
import { webUrl } from '../../net/web-url'
import { MIN_PASSWORD_LENGTH } from './auth.password'

export const THEMES = ['light', 'dark'] as const
export const PROFILE_ROLES = ['developer', 'designer', 'qa', 'producer', 'community_manager', 'player'] as const

const email = z.string().trim().max(254).pipe(z.email({ error: 'must be a valid email address' }))
const newPassword = z.string().min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1024)

export const signupBody = z.object({
  name: z.string().trim().max(100).optional(),
  email,
  password: newPassword,
})

/** Login takes either an identity token or email and password; which one is checked in the service. */
export const loginBody = z.object({
  email: z.string().optional(),
  password: z.string().max(1024).optional(),
  identity_token: z.string().min(1).max(16_384).optional(),
})

export const passwordLoginBody = z.object({ email, password: z.string().min(1).max(1024) })

export const resendVerificationBody = z.object({ email: z.string().optional() }).optional()

export const verifyEmailQuery = z.object({ token: z.string().min(1).max(200) })

/** Theme and role accept anything: unrecognised values are ignored rather than refused (spec 4.1). */
export const profileBody = z.object({
  display_name: z.string().trim().max(100).optional(),
  avatar_url: webUrl(2000, { empty: true }).optional(),
  theme: z.unknown().optional(),
  role: z.unknown().optional(),
})

export const changePasswordBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: newPassword,
})

export const shareCodeQuery = z.object({ hours: z.enum(['1', '3', '24'], { error: 'must be 1, 3 or 24' }).optional() })

export const forgotPasswordBody = z.object({ email })

export const resetPasswordBody = z.object({ token: z.string().min(1).max(200), new_password: newPassword })
