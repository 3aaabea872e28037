ALTER TABLE `projects` ADD `dsn_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `projects_dsn_id_unique` ON `projects` (`dsn_id`);--> statement-breakpoint
ALTER TABLE `reports` ADD `feedback_for` text;--> statement-breakpoint
CREATE INDEX `reports_feedback_for_idx` ON `reports` (`feedback_for`) WHERE feedback_for IS NOT NULL;--> statement-breakpoint
ALTER TABLE `play_sessions` ADD `environment` text DEFAULT '' NOT NULL;