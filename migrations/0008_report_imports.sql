CREATE TABLE `report_imports` (
	`report_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`external_id` text,
	`external_url` text,
	`import_id` text NOT NULL,
	`imported_by` text,
	`imported_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_imports_external_unique` ON `report_imports` (`project_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `report_imports_project_idx` ON `report_imports` (`project_id`,`imported_at`);