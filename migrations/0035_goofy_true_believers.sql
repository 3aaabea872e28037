ALTER TABLE `reports` ADD `level` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `handled` integer;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `level` text;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `handled` integer;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `crash` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `report_occurrences` ADD `received_at` integer;--> statement-breakpoint
ALTER TABLE `analytics_crash_groups` ADD `crashes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_daily_reports` ADD `crashes` integer DEFAULT 0 NOT NULL;