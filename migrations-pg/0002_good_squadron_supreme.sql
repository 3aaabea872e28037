ALTER TABLE "report_occurrences" ADD COLUMN "runtime" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "runtime_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "browser" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "browser_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_occurrences" ADD COLUMN "environment" text DEFAULT '' NOT NULL;