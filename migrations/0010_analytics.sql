CREATE TABLE `analytics_crash_group_players` (
	`group_id` integer NOT NULL,
	`player_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `player_id`),
	FOREIGN KEY (`group_id`) REFERENCES `analytics_crash_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_crash_group_versions` (
	`group_id` integer NOT NULL,
	`game_version` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`group_id`, `game_version`),
	FOREIGN KEY (`group_id`) REFERENCES `analytics_crash_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_crash_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`error_type` text NOT NULL,
	`frame` text NOT NULL,
	`sample_title` text NOT NULL,
	`sample_report_number` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`players` integer DEFAULT 0 NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_crash_groups_key` ON `analytics_crash_groups` (`project_id`,`error_type`,`frame`);--> statement-breakpoint
CREATE INDEX `analytics_crash_groups_count_idx` ON `analytics_crash_groups` (`project_id`,`count`);--> statement-breakpoint
CREATE TABLE `analytics_daily_reports` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`game_version` text NOT NULL,
	`platform` text NOT NULL,
	`reports` integer DEFAULT 0 NOT NULL,
	`crash_reports` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `game_version`, `platform`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_daily_resolved` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `day`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_log_lines` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`line` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `line`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_perf_histogram` (
	`project_id` text NOT NULL,
	`game_version` text NOT NULL,
	`platform` text NOT NULL,
	`metric` text NOT NULL,
	`value` real NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `game_version`, `platform`, `metric`, `value`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_player_notes` (
	`project_id` text NOT NULL,
	`player_id` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`sentiment` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `player_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_player_reports` (
	`project_id` text NOT NULL,
	`player_id` text NOT NULL,
	`report_seq` integer NOT NULL,
	PRIMARY KEY(`project_id`, `player_id`, `report_seq`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_regressions` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`original_bug_id` text NOT NULL,
	`new_bug_id` text NOT NULL,
	`status` text NOT NULL,
	`resolved_version` text DEFAULT '' NOT NULL,
	`regressed_version` text DEFAULT '' NOT NULL,
	`decided_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_regressions_pair` ON `analytics_regressions` (`project_id`,`original_bug_id`,`new_bug_id`);--> statement-breakpoint
CREATE TABLE `analytics_report_dimensions` (
	`project_id` text NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `dimension`, `value`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_version_players` (
	`project_id` text NOT NULL,
	`game_version` text NOT NULL,
	`player_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `game_version`, `player_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_versions` (
	`project_id` text NOT NULL,
	`game_version` text NOT NULL,
	`first_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `game_version`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
