CREATE TABLE `integration_attempts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`response` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `integration_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `integration_attempts_delivery_idx` ON `integration_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `integration_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`integration_id` text NOT NULL,
	`event` text NOT NULL,
	`action` text NOT NULL,
	`report_id` text,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`response` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `integrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `integration_deliveries_integration_idx` ON `integration_deliveries` (`integration_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `integration_deliveries_report_idx` ON `integration_deliveries` (`report_id`,`integration_id`);--> statement-breakpoint
CREATE TABLE `integration_links` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`integration_id` text,
	`provider` text NOT NULL,
	`external_id` text NOT NULL,
	`url` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`state` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`integration_id`) REFERENCES `integrations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `integration_links_report_integration_unique` ON `integration_links` (`report_id`,`integration_id`);--> statement-breakpoint
CREATE INDEX `integration_links_integration_idx` ON `integration_links` (`integration_id`);--> statement-breakpoint
CREATE TABLE `integrations` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`secret_enc` text NOT NULL,
	`secret_hint` text NOT NULL,
	`event_types` text NOT NULL,
	`min_priority` text NOT NULL,
	`config` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `integrations_project_idx` ON `integrations` (`project_id`,`provider`);