PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_report_occurrences` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`report_id` text NOT NULL,
	`project_id` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`steps_to_reproduce` text DEFAULT '' NOT NULL,
	`expected_behavior` text DEFAULT '' NOT NULL,
	`actual_behavior` text DEFAULT '' NOT NULL,
	`source` text DEFAULT 'user' NOT NULL,
	`error_type` text DEFAULT '' NOT NULL,
	`device_info` text DEFAULT '' NOT NULL,
	`os_info` text DEFAULT '' NOT NULL,
	`platform` text DEFAULT '' NOT NULL,
	`game_version` text DEFAULT '' NOT NULL,
	`player_id` text,
	`reporter_name` text,
	`reporter_email` text,
	`metadata` text,
	`screenshot_key` text,
	`client` text,
	`event_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Every report becomes its first occurrence, with its own evidence; earlier stacked submissions keep
-- what they stored (the report's title stands in for theirs). In time order, so `seq` is too.
INSERT INTO `__new_report_occurrences` ("id", "report_id", "project_id", "title", "description", "steps_to_reproduce", "expected_behavior", "actual_behavior", "source", "error_type", "device_info", "os_info", "platform", "game_version", "player_id", "reporter_name", "reporter_email", "metadata", "screenshot_key", "created_at")
SELECT "id", "report_id", "project_id", "title", "description", "steps_to_reproduce", "expected_behavior", "actual_behavior", "source", "error_type", "device_info", "os_info", "platform", "game_version", "player_id", "reporter_name", "reporter_email", "metadata", "screenshot_key", "created_at" FROM (
  SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-7' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(6))) AS "id",
    r."id" AS "report_id", r."project_id", r."title", r."description", r."steps_to_reproduce", r."expected_behavior", r."actual_behavior", r."source", r."error_type",
    r."device_info", r."os_info", r."platform", r."game_version", r."player_id", r."reporter_name", r."reporter_email", r."metadata", r."screenshot_key", r."created_at", 0 AS "later"
  FROM `reports` r
  UNION ALL
  SELECT o."id", o."report_id", o."project_id", r."title", '', '', '', '', r."source", r."error_type",
    o."device_info", o."os_info", o."platform", o."game_version", o."player_id", o."reporter_name", NULL, o."metadata", o."screenshot_key", o."created_at", 1
  FROM `report_occurrences` o JOIN `reports` r ON r."id" = o."report_id"
) ORDER BY "created_at", "later";--> statement-breakpoint
DROP TABLE `report_occurrences`;--> statement-breakpoint
ALTER TABLE `__new_report_occurrences` RENAME TO `report_occurrences`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `report_occurrences_id_unique` ON `report_occurrences` (`id`);--> statement-breakpoint
CREATE INDEX `report_occurrences_report_idx` ON `report_occurrences` (`report_id`,`seq`);--> statement-breakpoint
CREATE INDEX `report_occurrences_event_idx` ON `report_occurrences` (`project_id`,`event_id`) WHERE event_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `player_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `first_seen` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `last_seen` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `first_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `last_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `versions` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `resolved_in_version` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `regressed_in_version` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `regressed_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `fingerprint` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `grouping_label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `merged_into` text;--> statement-breakpoint
CREATE INDEX `reports_grouping_idx` ON `reports` (`project_id`,`fingerprint`,`seq`) WHERE deleted_at IS NULL AND status IN ('open', 'in_progress', 'resolved');--> statement-breakpoint
CREATE INDEX `reports_live_last_seen_idx` ON `reports` (`project_id`,`last_seen`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_occurrences_idx` ON `reports` (`project_id`,`occurrence_count`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_players_idx` ON `reports` (`project_id`,`player_count`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
ALTER TABLE `attachments` ADD `occurrence_id` text;;--> statement-breakpoint
-- The counts each report now carries, from its occurrences.
UPDATE `reports` SET
  `occurrence_count` = (SELECT count(*) FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id`),
  `first_seen` = (SELECT min(o.`created_at`) FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id`),
  `last_seen` = (SELECT max(o.`created_at`) FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id`),
  `first_version` = coalesce((SELECT o.`game_version` FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id` AND o.`game_version` <> '' ORDER BY o.`seq` LIMIT 1), ''),
  `last_version` = coalesce((SELECT o.`game_version` FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id` AND o.`game_version` <> '' ORDER BY o.`seq` DESC LIMIT 1), ''),
  `versions` = (SELECT json_group_array(v) FROM (SELECT o.`game_version` AS v FROM `report_occurrences` o WHERE o.`report_id` = `reports`.`id` AND o.`game_version` <> '' GROUP BY o.`game_version` ORDER BY max(o.`seq`) DESC LIMIT 20))