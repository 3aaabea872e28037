CREATE TABLE `project_slug_redirects` (
	`slug` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `project_slug_redirects_project_idx` ON `project_slug_redirects` (`project_id`);--> statement-breakpoint
ALTER TABLE `projects` ADD `previous_api_key` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `previous_api_key_expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `projects_previous_api_key_unique` ON `projects` (`previous_api_key`);