CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`hint` text NOT NULL,
	`scopes` text NOT NULL,
	`project_id` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user_idx` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `debug_file_chunks` (
	`user_id` text NOT NULL,
	`sha1` text NOT NULL,
	`file_key` text NOT NULL,
	`size` integer NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `sha1`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `debug_file_chunks_received_idx` ON `debug_file_chunks` (`received_at`);--> statement-breakpoint
CREATE TABLE `debug_files` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`arch` text,
	`debug_id` text,
	`code_id` text,
	`debug_ids` text,
	`release` text,
	`dist` text,
	`size` integer NOT NULL,
	`checksum` text NOT NULL,
	`file_key` text NOT NULL,
	`index_key` text,
	`detail` text,
	`uploaded_at` integer NOT NULL,
	`crashes_symbolicated` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `debug_files_project_checksum_unique` ON `debug_files` (`project_id`,`checksum`);--> statement-breakpoint
CREATE INDEX `debug_files_project_uploaded_idx` ON `debug_files` (`project_id`,`uploaded_at`);--> statement-breakpoint
CREATE INDEX `debug_files_project_debug_id_idx` ON `debug_files` (`project_id`,`debug_id`);