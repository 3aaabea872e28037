PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_report_inbox` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`report_number` integer NOT NULL,
	`title_key` text NOT NULL,
	`input` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_report_inbox`("seq", "id", "project_id", "report_number", "title_key", "input", "created_at") SELECT "seq", "id", "project_id", "report_number", "title_key", "input", "created_at" FROM `report_inbox`;--> statement-breakpoint
DROP TABLE `report_inbox`;--> statement-breakpoint
ALTER TABLE `__new_report_inbox` RENAME TO `report_inbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `report_inbox_id_unique` ON `report_inbox` (`id`);