PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_telemetry_daily_sessions` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`game_version` text NOT NULL,
	`platform` text NOT NULL,
	`environment` text DEFAULT '' NOT NULL,
	`started` integer NOT NULL,
	`ended` integer NOT NULL,
	`crashed` integer NOT NULL,
	`players` integer NOT NULL,
	`duration_sec` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `game_version`, `platform`, `environment`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_telemetry_daily_sessions`("project_id", "day", "game_version", "platform", "environment", "started", "ended", "crashed", "players", "duration_sec") SELECT "project_id", "day", "game_version", "platform", "environment", "started", "ended", "crashed", "players", "duration_sec" FROM `telemetry_daily_sessions`;--> statement-breakpoint
DROP TABLE `telemetry_daily_sessions`;--> statement-breakpoint
ALTER TABLE `__new_telemetry_daily_sessions` RENAME TO `telemetry_daily_sessions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;