CREATE TABLE `telemetry_daily_events` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`event_name` text NOT NULL,
	`count` integer NOT NULL,
	`sessions` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `event_name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `telemetry_daily_sessions` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`game_version` text NOT NULL,
	`platform` text NOT NULL,
	`started` integer NOT NULL,
	`ended` integer NOT NULL,
	`crashed` integer NOT NULL,
	`players` integer NOT NULL,
	`duration_sec` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `game_version`, `platform`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `telemetry_rollup_state` (
	`name` text PRIMARY KEY NOT NULL,
	`through_day` text NOT NULL
);
