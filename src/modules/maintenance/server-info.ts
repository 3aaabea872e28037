import type { Config } from '../../config/config'
import { billingConfigured } from '../billing/plans'

/** `GET /server-info`: what a client (the dashboard) needs to know before anyone signs in; no secrets. */
export function serverInfo(config: Config) {
  return {
    version: config.version,
    billing_configured: billingConfigured(config),
    sign_in: { google: Boolean(config.googleClientId), apple: Boolean(config.appleClientId) },
  }
}
