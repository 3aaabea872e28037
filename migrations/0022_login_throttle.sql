CREATE TABLE `login_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_key` text NOT NULL,
	`failed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_account_idx` ON `login_failures` (`account_key`,`failed_at`);--> statement-breakpoint
CREATE TABLE `login_lockouts` (
	`account_key` text PRIMARY KEY NOT NULL,
	`locked_until` integer NOT NULL
);
