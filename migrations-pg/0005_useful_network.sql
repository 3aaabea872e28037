ALTER TABLE "analytics_crash_groups" ADD COLUMN "crashes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_daily_reports" ADD COLUMN "crashes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "handled" integer;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "crash" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "received_at" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "handled" integer;