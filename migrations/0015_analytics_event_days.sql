CREATE TABLE `analytics_event_day_sessions` (
	`name_id` integer NOT NULL,
	`day` text NOT NULL,
	`session_token` text NOT NULL,
	PRIMARY KEY(`day`, `name_id`, `session_token`)
);
--> statement-breakpoint
CREATE TABLE `analytics_event_days` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`event_name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`sessions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `event_name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
