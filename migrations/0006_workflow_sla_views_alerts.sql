CREATE TABLE `alert_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`metric` text NOT NULL,
	`threshold` real NOT NULL,
	`window_hours` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`last_evaluated_at` integer,
	`last_value` real,
	`last_fired_at` integer,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_rules_project_idx` ON `alert_rules` (`project_id`);--> statement-breakpoint
CREATE TABLE `report_hourly_counts` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`reports` integer DEFAULT 0 NOT NULL,
	`crash_reports` integer DEFAULT 0 NOT NULL,
	`negative_reports` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `hour`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_sla` (
	`report_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`response_due_at` integer,
	`resolve_due_at` integer,
	`responded_at` integer,
	`resolved_at` integer,
	`response_breached_at` integer,
	`resolve_breached_at` integer,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_sla_response_running_idx` ON `report_sla` (`response_due_at`) WHERE response_due_at IS NOT NULL AND responded_at IS NULL AND response_breached_at IS NULL;--> statement-breakpoint
CREATE INDEX `report_sla_resolve_running_idx` ON `report_sla` (`resolve_due_at`) WHERE resolve_due_at IS NOT NULL AND resolved_at IS NULL AND resolve_breached_at IS NULL;--> statement-breakpoint
CREATE INDEX `report_sla_project_resolve_idx` ON `report_sla` (`project_id`,`resolve_due_at`);--> statement-breakpoint
CREATE TABLE `rollup_cursors` (
	`name` text PRIMARY KEY NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `saved_filters` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`filters` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_filters_user_idx` ON `saved_filters` (`user_id`,`project_id`);--> statement-breakpoint
CREATE TABLE `saved_views` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`filters` text NOT NULL,
	`sort_by` text,
	`pinned` integer DEFAULT false NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_views_user_idx` ON `saved_views` (`user_id`,`project_id`,`position`);--> statement-breakpoint
CREATE TABLE `sla_rules` (
	`project_id` text NOT NULL,
	`priority` text NOT NULL,
	`response_hours` real NOT NULL,
	`resolve_hours` real NOT NULL,
	PRIMARY KEY(`project_id`, `priority`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
