CREATE TABLE `occurrence_tags` (
	`occurrence_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`occurrence_id`, `key`),
	FOREIGN KEY (`occurrence_id`) REFERENCES `report_occurrences`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_occurrences_report_time_idx` ON `report_occurrences` (`report_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `report_occurrences_project_time_idx` ON `report_occurrences` (`project_id`,`created_at`,`report_id`);