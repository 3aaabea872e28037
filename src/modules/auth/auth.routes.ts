import { Elysia } from 'elysia'
import { prefersHtml } from '../../http/accept'
import type { AppDeps } from '../../app-deps'
import { authPlugin, bearer } from '../../http/auth.plugin'
import { checkCookieOrigin, clearedSessionCookie, sessionCookie, sessionCookieOf, wantsSessionCookie } from '../../http/browser-session'
import { badRequest, unauthorized } from '../../http/errors'
import { createIdentityVerifier } from './auth.identity'
import { verifyPassword } from './auth.password'
import { profileView, updateProfile } from './auth.profile'
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  profileBody,
  resendVerificationBody,
  resetPasswordBody,
  shareCodeQuery,
  signupBody,
  verifyEmailQuery,
} from './auth.schemas'
import { FORGOT_MESSAGE, requestPasswordReset, resetPassword } from './auth.password-reset'
import { changePassword, login, signup } from './auth.service'
import { findSessionUser, revokeSession } from './auth.sessions'
import { createShareCode, revokeShareCode } from './auth.share-code'
import { createPasswordCheck } from './auth.throttle'
import { RESEND_MESSAGE, resendVerification, verifyEmail } from './auth.verification'

const tags = ['Auth']

/** True when the Accept header asks for a page before JSON (a link opened in a browser). */

/** Spec 4.1: sign-up, sign-in (password or Google/Apple), sessions, profile and share code (export and deletion: account-data). */
export function authRoutes(deps: AppDeps) {
  const checks = { verifyIdentity: createIdentityVerifier(deps), checkPassword: createPasswordCheck(deps) }
  // Computes the dummy hash now, so the first failed login is not slower than the others.
  void verifyPassword('', null)
  // The web app (X-Glitchbox-Client: web) also gets its session as an HttpOnly cookie (CONTRACT.md, "Web").
  const withCookie = <T extends { token: string }>(headers: Record<string, string | undefined>, set: { headers: Record<string, unknown> }, session: T) => {
    if (wantsSessionCookie(headers)) set.headers['set-cookie'] = sessionCookie(deps.config, session.token)
    return session
  }

  return new Elysia()
    .use(authPlugin(deps))
    .post(
      '/auth/signup',
      async ({ body, set, headers }) => {
        set.status = 201
        return withCookie(headers, set, await signup(deps, body))
      },
      { body: signupBody, detail: { tags, summary: 'Create a user with their own team account; sends a verification email' } },
    )
    .post('/auth/login', async ({ body, headers, set }) => withCookie(headers, set, await login(deps, checks, body)), {
      body: loginBody,
      detail: { tags, summary: 'Sign in with email and password, or with a Google or Apple identity_token; 10 wrong passwords for one email in 15 minutes pause its password sign-in for 15 minutes (429)' },
    })
    .get(
      '/auth/verify-email',
      async ({ query, headers, redirect }) => {
        // The mailed link opened in a browser lands on the web app's confirmation page; API clients get JSON.
        if (!prefersHtml(headers.accept)) return verifyEmail(deps, query.token)
        let status = 'ok'
        try {
          await verifyEmail(deps, query.token)
        } catch {
          status = 'invalid'
        }
        return redirect(`/verify-email?status=${status}`, 303)
      },
      {
        query: verifyEmailQuery,
        detail: { tags, summary: 'Verify an email address with the token from the verification email (browsers are redirected to /verify-email?status=ok|invalid)' },
      },
    )
    .post(
      '/auth/forgot-password',
      async ({ body }) => {
        await requestPasswordReset(deps, body.email)
        return { message: FORGOT_MESSAGE }
      },
      { body: forgotPasswordBody, detail: { tags, summary: 'Mail a single-use password reset link (valid one hour); answers the same whether or not the account exists' } },
    )
    .post('/auth/reset-password', ({ body }) => resetPassword(deps, body.token, body.new_password), {
      body: resetPasswordBody,
      detail: { tags, summary: 'Set a new password with the token from the reset link; signs out every session of the user' },
    })
    .post(
      '/auth/resend-verification',
      async ({ headers, body, request }) => {
        let token = bearer(headers)
        if (!token && !headers.authorization) {
          token = sessionCookieOf(headers)
          if (token) checkCookieOrigin(deps.config, request.method, headers)
        }
        if (token) {
          const found = await findSessionUser(deps.db, token, deps.clock.now())
          if (!found) throw unauthorized('missing or invalid session token')
          await resendVerification(deps, { userId: found.user.id })
        } else {
          if (!body?.email) throw badRequest('email is required unless you are signed in')
          await resendVerification(deps, { email: body.email })
        }
        return { message: RESEND_MESSAGE }
      },
      { body: resendVerificationBody, detail: { tags, summary: 'Send a new verification email (signed in, or with {email})' } },
    )
    .post(
      '/auth/logout',
      async ({ sessionId, set }) => {
        await revokeSession(deps.db, sessionId)
        set.headers['set-cookie'] = clearedSessionCookie(deps.config)
        return { message: 'Signed out' }
      },
      { auth: true, detail: { tags, summary: 'Revoke the presented session token' } },
    )
    .get('/auth/me', ({ user }) => profileView(deps.db, user), { auth: true, detail: { tags, summary: 'The signed-in user profile' } })
    .patch('/auth/profile', ({ user, body }) => updateProfile(deps.db, user, body, deps.clock.now()), {
      auth: true,
      body: profileBody,
      detail: { tags, summary: 'Update display_name, avatar_url, theme or role' },
    })
    .post('/auth/change-password', ({ user, sessionId, body }) => changePassword(deps, checks.checkPassword, user, sessionId, body), {
      auth: true,
      body: changePasswordBody,
      detail: { tags, summary: 'Change the password; signs out every other session. A wrong current password counts toward the sign-in lockout' },
    })
    .post('/auth/support-share-code', ({ user, query }) => createShareCode(deps.db, user.id, Number(query.hours ?? '1'), deps.clock.now()), {
      auth: true,
      query: shareCodeQuery,
      detail: { tags, summary: 'Issue a temporary support share code ({code, expires_at}); replaces the previous one' },
    })
    .delete('/auth/support-share-code', ({ user }) => revokeShareCode(deps.db, user.id), {
      auth: true,
      detail: { tags, summary: 'Revoke the support share code' },
    })
}
