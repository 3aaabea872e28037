// Every table of every domain, for Drizzle's relational API and drizzle-kit.
// A new domain adds one line here.
export * from '../jobs/jobs.table'
export * from '../files/files.table'
export * from '../mail/mail.table'
export * from '../modules/auth/auth.table'
export * from '../modules/accounts/accounts.table'
export * from '../modules/projects/projects.table'
export * from '../modules/reports/reports.table'
export * from '../modules/comments/comments.table'
export * from '../modules/labels/labels.table'
export * from '../modules/attachments/attachments.table'
export * from '../modules/activity/activity.table'
export * from '../modules/maintenance/maintenance.table'
