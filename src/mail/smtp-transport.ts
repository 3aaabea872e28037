import nodemailer from 'nodemailer'
import type { MailTransport } from './mailer'

/** SMTP delivery through nodemailer, from `smtp://user:pass@host:port` or `smtps://…`. */
export function createSmtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transporter.sendMail(mail)
    },
  }
}
