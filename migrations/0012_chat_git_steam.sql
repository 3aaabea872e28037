CREATE TABLE `chat_channel_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`channel_id` text NOT NULL,
	`event` text NOT NULL,
	`report_id` text,
	`body` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`response` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`channel_id`) REFERENCES `chat_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_channel_deliveries_channel_idx` ON `chat_channel_deliveries` (`channel_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `chat_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`provider` text NOT NULL,
	`webhook_url_enc` text NOT NULL,
	`webhook_url_hint` text NOT NULL,
	`channel_name` text NOT NULL,
	`event_types` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_channels_project_idx` ON `chat_channels` (`project_id`,`provider`);--> statement-breakpoint
CREATE TABLE `git_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`provider` text NOT NULL,
	`repo_url` text NOT NULL,
	`repo_path` text NOT NULL,
	`token_enc` text NOT NULL,
	`token_hint` text NOT NULL,
	`auto_create_issues` integer DEFAULT false NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `git_connections_project_unique` ON `git_connections` (`project_id`);--> statement-breakpoint
CREATE TABLE `git_issue_links` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`project_id` text NOT NULL,
	`provider` text NOT NULL,
	`issue_number` integer NOT NULL,
	`issue_url` text NOT NULL,
	`issue_title` text NOT NULL,
	`created` integer NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `git_issue_links_report_unique` ON `git_issue_links` (`report_id`);--> statement-breakpoint
CREATE INDEX `git_issue_links_project_idx` ON `git_issue_links` (`project_id`);--> statement-breakpoint
CREATE TABLE `steam_apps` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`app_id` integer NOT NULL,
	`sync_enabled` integer DEFAULT true NOT NULL,
	`review_score` integer,
	`review_score_desc` text,
	`total_positive` integer,
	`total_negative` integer,
	`total_reviews` integer,
	`last_sync_at` integer,
	`last_sync_fetched` integer,
	`last_sync_new` integer,
	`last_sync_error` text,
	`sync_count` integer DEFAULT 0 NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `steam_apps_project_unique` ON `steam_apps` (`project_id`);--> statement-breakpoint
CREATE TABLE `steam_reviews` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`app_id` integer NOT NULL,
	`recommendation_id` text NOT NULL,
	`author_steam_id` text DEFAULT '' NOT NULL,
	`language` text DEFAULT '' NOT NULL,
	`review` text NOT NULL,
	`voted_up` integer NOT NULL,
	`votes_up` integer DEFAULT 0 NOT NULL,
	`votes_funny` integer DEFAULT 0 NOT NULL,
	`playtime_at_review` integer,
	`playtime_forever` integer,
	`steam_purchase` integer DEFAULT true NOT NULL,
	`received_for_free` integer DEFAULT false NOT NULL,
	`written_during_early_access` integer DEFAULT false NOT NULL,
	`posted_at` integer NOT NULL,
	`edited_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `steam_reviews_project_recommendation_unique` ON `steam_reviews` (`project_id`,`recommendation_id`);--> statement-breakpoint
CREATE INDEX `steam_reviews_project_posted_idx` ON `steam_reviews` (`project_id`,`posted_at`);