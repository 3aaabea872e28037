import type { Config } from '../../config/config'
import type { Mailer } from '../../mail/mailer'
import { billingConfigured } from '../auth/plans'

/**
 * `GET /server-info`: what a client (the dashboard) needs to know before anyone signs in; no secrets.
 * The Google and Apple client ids are public by design: every sign-in button on the web carries its own.
 */
export function serverInfo(config: Config, mailer: Pick<Mailer, 'configured'>, hasAccounts: boolean) {
  return {
    version: config.version,
    has_accounts: hasAccounts,
    billing_configured: billingConfigured(config),
    mail_configured: mailer.configured,
    sign_in: { google: config.googleClientId ?? null, apple: config.appleClientId ?? null },
  }
}
