CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`run_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`last_error` text,
	`idempotency_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_idempotency_unique` ON `jobs` (`idempotency_key`) WHERE "jobs"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `jobs_lease_idx` ON `jobs` (`status`,`lease_expires_at`);--> statement-breakpoint
CREATE TABLE `files` (
	`key` text PRIMARY KEY NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`file_name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_to_idx` ON `mail_outbox` (`to`);--> statement-breakpoint
CREATE TABLE `email_verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_verifications_token_hash_unique` ON `email_verifications` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_verifications_user_idx` ON `email_verifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `support_share_codes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `support_share_codes_code_hash_unique` ON `support_share_codes` (`code_hash`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text,
	`display_name` text,
	`avatar_url` text,
	`theme` text,
	`role` text,
	`email_verified` integer DEFAULT false NOT NULL,
	`onboarding_done` integer DEFAULT false NOT NULL,
	`google_sub` text,
	`apple_sub` text,
	`current_account_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_unique` ON `users` (`google_sub`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_apple_sub_unique` ON `users` (`apple_sub`);--> statement-breakpoint
CREATE TABLE `account_members` (
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`permission_overrides` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `user_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_members_user_idx` ON `account_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`owner_id` text NOT NULL,
	`plan` text NOT NULL,
	`reports_created` integer DEFAULT 0 NOT NULL,
	`upload_bytes_used` integer DEFAULT 0 NOT NULL,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`created_by` text,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`website_url` text DEFAULT '' NOT NULL,
	`logo_url` text DEFAULT '' NOT NULL,
	`api_key` text NOT NULL,
	`is_public` integer DEFAULT true NOT NULL,
	`screenshot_capture` integer DEFAULT true NOT NULL,
	`session_capture` integer DEFAULT false NOT NULL,
	`auto_file_errors` integer DEFAULT true NOT NULL,
	`capture_editor_errors` integer DEFAULT false NOT NULL,
	`capture_warnings` integer DEFAULT false NOT NULL,
	`bug_grouping` integer DEFAULT true NOT NULL,
	`last_report_number` integer DEFAULT 0 NOT NULL,
	`live_report_count` integer DEFAULT 0 NOT NULL,
	`first_report_at` integer,
	`first_session_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `projects_slug_unique` ON `projects` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `projects_api_key_unique` ON `projects` (`api_key`);--> statement-breakpoint
CREATE INDEX `projects_account_idx` ON `projects` (`account_id`);--> statement-breakpoint
CREATE TABLE `report_status_counts` (
	`project_id` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`project_id`, `status`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`report_number` integer NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`priority_rank` integer DEFAULT 2 NOT NULL,
	`category` text DEFAULT 'other' NOT NULL,
	`platform` text DEFAULT '' NOT NULL,
	`game_version` text DEFAULT '' NOT NULL,
	`os_info` text DEFAULT '' NOT NULL,
	`device_info` text DEFAULT '' NOT NULL,
	`steps_to_reproduce` text DEFAULT '' NOT NULL,
	`expected_behavior` text DEFAULT '' NOT NULL,
	`actual_behavior` text DEFAULT '' NOT NULL,
	`assigned_to` text,
	`is_private` integer DEFAULT false NOT NULL,
	`error_type` text DEFAULT '' NOT NULL,
	`source` text DEFAULT 'user' NOT NULL,
	`upvotes` integer DEFAULT 0 NOT NULL,
	`occurrence_count` integer DEFAULT 1 NOT NULL,
	`sentiment_score` real,
	`sentiment_level` text,
	`title_key` text NOT NULL,
	`reporter_name` text,
	`reporter_email` text,
	`player_id` text,
	`metadata` text,
	`screenshot_key` text,
	`created_by` text,
	`due_date` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_id_unique` ON `reports` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `reports_project_number_unique` ON `reports` (`project_id`,`report_number`);--> statement-breakpoint
CREATE INDEX `reports_live_idx` ON `reports` (`project_id`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_status_idx` ON `reports` (`project_id`,`status`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_status_priority_idx` ON `reports` (`project_id`,`status`,`priority_rank`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_priority_idx` ON `reports` (`project_id`,`priority_rank`,"seq" desc) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_category_idx` ON `reports` (`project_id`,`category`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_source_idx` ON `reports` (`project_id`,`source`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_updated_idx` ON `reports` (`project_id`,`updated_at`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_upvotes_idx` ON `reports` (`project_id`,`upvotes`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_error_type_idx` ON `reports` (`project_id`,`error_type`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_live_assignee_idx` ON `reports` (`project_id`,`assigned_to`,`seq`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `reports_project_title_key_idx` ON `reports` (`project_id`,`title_key`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`project_id` text NOT NULL,
	`author_id` text,
	`body` text NOT NULL,
	`is_internal` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comments_report_idx` ON `comments` (`report_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#2E5BFF' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_project_name_unique` ON `labels` (`project_id`,`name`);--> statement-breakpoint
CREATE TABLE `report_labels` (
	`report_id` text NOT NULL,
	`report_seq` integer NOT NULL,
	`label_id` text NOT NULL,
	PRIMARY KEY(`report_id`, `label_id`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_labels_label_seq_idx` ON `report_labels` (`label_id`,`report_seq`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`project_id` text NOT NULL,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`mime_type` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attachments_report_idx` ON `attachments` (`report_id`);--> statement-breakpoint
CREATE TABLE `activity` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`report_id` text,
	`actor_id` text,
	`action` text NOT NULL,
	`field` text,
	`old_value` text,
	`new_value` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_project_idx` ON `activity` (`project_id`,`seq`);--> statement-breakpoint
CREATE INDEX `activity_report_idx` ON `activity` (`report_id`,`seq`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`project_id` text,
	`actor_id` text,
	`action` text NOT NULL,
	`target` text,
	`details` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_project_idx` ON `audit_log` (`project_id`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_account_idx` ON `audit_log` (`account_id`,`seq`);--> statement-breakpoint
CREATE TABLE `maintenance_banners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message` text NOT NULL,
	`ends_at` integer,
	`cleared_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `event_names` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_names_project_name_unique` ON `event_names` (`project_id`,`name`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY NOT NULL,
	`name_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`session_token` text,
	`platform` text,
	`game_version` text,
	`data` text,
	FOREIGN KEY (`name_id`) REFERENCES `event_names`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_name_created_idx` ON `events` (`name_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `perf_snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`report_id` text,
	`fps` real,
	`frame_time_ms` real,
	`memory_used_mb` real,
	`memory_total_mb` real,
	`draw_calls` real,
	`triangles` real,
	`cpu_usage` real,
	`gpu_usage` real,
	`load_time_sec` real,
	`network_latency_ms` real,
	`custom_metrics` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `perf_snapshots_project_idx` ON `perf_snapshots` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `perf_snapshots_report_idx` ON `perf_snapshots` (`report_id`);--> statement-breakpoint
CREATE TABLE `play_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`token` text NOT NULL,
	`player_id` text,
	`player_name` text,
	`platform` text DEFAULT '' NOT NULL,
	`game_version` text DEFAULT '' NOT NULL,
	`device_info` text DEFAULT '' NOT NULL,
	`os_info` text DEFAULT '' NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`crashed` integer DEFAULT false NOT NULL,
	`duration_sec` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `play_sessions_project_token_unique` ON `play_sessions` (`project_id`,`token`);--> statement-breakpoint
CREATE INDEX `play_sessions_project_started_idx` ON `play_sessions` (`project_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `play_sessions_project_player_idx` ON `play_sessions` (`project_id`,`player_id`);--> statement-breakpoint
CREATE TABLE `players` (
	`project_id` text NOT NULL,
	`player_id` text NOT NULL,
	`name` text,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`session_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `player_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_occurrences` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`project_id` text NOT NULL,
	`device_info` text DEFAULT '' NOT NULL,
	`os_info` text DEFAULT '' NOT NULL,
	`platform` text DEFAULT '' NOT NULL,
	`game_version` text DEFAULT '' NOT NULL,
	`player_id` text,
	`reporter_name` text,
	`metadata` text,
	`screenshot_key` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_occurrences_report_idx` ON `report_occurrences` (`report_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `session_replays` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`report_id` text NOT NULL,
	`file_key` text NOT NULL,
	`file_size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`duration_sec` real,
	`metadata` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_replays_report_idx` ON `session_replays` (`report_id`);--> statement-breakpoint
CREATE TABLE `report_votes` (
	`report_seq` integer NOT NULL,
	`voter_key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`report_seq`, `voter_key`),
	FOREIGN KEY (`report_seq`) REFERENCES `reports`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `project_settings` (
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `kind`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `changelog_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`title` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`version` text DEFAULT '' NOT NULL,
	`published_at` integer,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `changelog_project_published_idx` ON `changelog_entries` (`project_id`,`published_at`);--> statement-breakpoint
CREATE INDEX `changelog_project_created_idx` ON `changelog_entries` (`project_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`response_snippet` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`secret` text,
	`event_types` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_project_idx` ON `webhooks` (`project_id`);--> statement-breakpoint
CREATE TABLE `notification_fanouts` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email_bug_created` integer DEFAULT true NOT NULL,
	`email_bug_status` integer DEFAULT true NOT NULL,
	`email_bug_assigned` integer DEFAULT true NOT NULL,
	`email_bug_commented` integer DEFAULT true NOT NULL,
	`email_weekly_digest` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `report_subscriptions` (
	`report_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`report_id`, `user_id`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_by` text,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_hash_unique` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_account_idx` ON `invitations` (`account_id`,`email`);--> statement-breakpoint
CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`account_id` text PRIMARY KEY NOT NULL,
	`subscription_id` text,
	`status` text NOT NULL,
	`price_id` text,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`pending_plan` text,
	`pending_effective_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
