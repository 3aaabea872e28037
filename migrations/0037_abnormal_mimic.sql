CREATE TABLE `discord_apps` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`application_id` text NOT NULL,
	`public_key` text NOT NULL,
	`bot_token_enc` text NOT NULL,
	`bot_token_hint` text NOT NULL,
	`guild_id` text NOT NULL,
	`reply_channel_id` text,
	`replies_enabled` integer DEFAULT true NOT NULL,
	`reports_per_hour` integer DEFAULT 10 NOT NULL,
	`blocked_user_ids` text DEFAULT '[]' NOT NULL,
	`command_registered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discord_apps_project_unique` ON `discord_apps` (`project_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `discord_apps_application_unique` ON `discord_apps` (`application_id`);--> statement-breakpoint
CREATE TABLE `discord_submissions` (
	`interaction_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`payload` text NOT NULL,
	`report_id` text,
	`report_number` integer,
	`channel_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `discord_submissions_user_idx` ON `discord_submissions` (`project_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `discord_submissions_report_idx` ON `discord_submissions` (`report_id`);