ALTER TABLE `git_connections` ADD `auto_error_message` text;--> statement-breakpoint
ALTER TABLE `git_connections` ADD `auto_error_report_number` integer;--> statement-breakpoint
ALTER TABLE `git_connections` ADD `auto_error_at` integer;