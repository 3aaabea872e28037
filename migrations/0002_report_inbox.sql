CREATE TABLE `report_inbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`report_number` integer NOT NULL,
	`title_key` text NOT NULL,
	`input` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_inbox_id_unique` ON `report_inbox` (`id`);--> statement-breakpoint
CREATE INDEX `report_inbox_title_idx` ON `report_inbox` (`project_id`,`title_key`);