CREATE TABLE `ingested_event_ids` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `ingested_event_ids_created_idx` ON `ingested_event_ids` (`created_at`);--> statement-breakpoint
-- Events stored before this table: their ids count as taken in, so a late retry of one changes nothing either.
INSERT OR IGNORE INTO `ingested_event_ids` (`project_id`, `event_id`, `created_at`) SELECT `project_id`, `event_id`, `created_at` FROM `report_occurrences` WHERE `event_id` IS NOT NULL;
