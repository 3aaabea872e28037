DROP INDEX `analytics_crash_groups_key`;--> statement-breakpoint
ALTER TABLE `analytics_crash_groups` ADD `fingerprint` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_crash_groups` ADD `label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_daily_reports` ADD `events` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_daily_reports` ADD `crash_events` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The report rollups are counted again from the occurrences (every submission, not only the first of
-- each report), under the new cursor `analytics_occurrences`: what they held is dropped.
DELETE FROM `analytics_crash_group_versions`;--> statement-breakpoint
DELETE FROM `analytics_crash_group_players`;--> statement-breakpoint
DELETE FROM `analytics_crash_groups`;--> statement-breakpoint
DELETE FROM `analytics_daily_reports`;--> statement-breakpoint
DELETE FROM `analytics_log_lines`;--> statement-breakpoint
DELETE FROM `rollup_cursors` WHERE `name` = 'analytics_reports';--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_crash_groups_fingerprint` ON `analytics_crash_groups` (`project_id`,`fingerprint`);
