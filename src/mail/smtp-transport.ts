import type { MailTransport } from './mailer'

/** SMTP delivery through nodemailer, from `smtp://user:pass@host:port` or `smtps://…`. */
export function createSmtpTransport(url: string): MailTransport {
  // Loaded here, not at the top: a server without SMTP never pays the ~6 MB nodemailer keeps resident.
  const nodemailer = require('nodemailer') as typeof import('nodemailer')
  const transporter = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transporter.sendMail(mail)
    },
  }
}
