CREATE TABLE `custom_field_values` (
	`report_id` text NOT NULL,
	`field_id` text NOT NULL,
	`value` text NOT NULL,
	`text_value` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`report_id`, `field_id`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`field_id`) REFERENCES `custom_fields`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `custom_field_values_filter_idx` ON `custom_field_values` (`field_id`,`text_value`);--> statement-breakpoint
CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`field_type` text NOT NULL,
	`options` text NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_project_name_unique` ON `custom_fields` (`project_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `report_due_notices` (
	`report_id` text NOT NULL,
	`due_date` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`report_id`, `due_date`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_dependencies` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`blocker_id` text NOT NULL,
	`blocked_id` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocker_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_dependencies_pair_unique` ON `report_dependencies` (`blocker_id`,`blocked_id`);--> statement-breakpoint
CREATE INDEX `report_dependencies_blocked_idx` ON `report_dependencies` (`blocked_id`);--> statement-breakpoint
CREATE TABLE `report_ratings` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`rater_id` text NOT NULL,
	`rating` integer NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rater_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_ratings_rater_unique` ON `report_ratings` (`report_id`,`rater_id`);--> statement-breakpoint
CREATE TABLE `report_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`priority` text,
	`category` text,
	`body_template` text DEFAULT '' NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_templates_project_name_unique` ON `report_templates` (`project_id`,lower("name"));--> statement-breakpoint
CREATE INDEX `reports_live_due_idx` ON `reports` (`project_id`,`due_date`,`seq`) WHERE deleted_at IS NULL AND due_date IS NOT NULL;--> statement-breakpoint
CREATE INDEX `reports_due_idx` ON `reports` (`due_date`) WHERE deleted_at IS NULL AND due_date IS NOT NULL;