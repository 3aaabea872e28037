CREATE TABLE `schedule_ticks` (
	`name` text PRIMARY KEY NOT NULL,
	`tick` integer NOT NULL,
	`owner` text NOT NULL
);
