CREATE TABLE `store_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`integration_id` text,
	`provider` text NOT NULL,
	`store_review_id` text NOT NULL,
	`author` text,
	`rating` integer NOT NULL,
	`title` text,
	`body` text DEFAULT '' NOT NULL,
	`language` text,
	`app_version` text,
	`device` text,
	`territory` text,
	`reviewed_at` integer NOT NULL,
	`reply_body` text,
	`replied_at` integer,
	`reply_external_id` text,
	`reply_state` text,
	`report_id` text,
	`filed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`integration_id`) REFERENCES `integrations`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_reviews_unique` ON `store_reviews` (`project_id`,`provider`,`store_review_id`);--> statement-breakpoint
CREATE INDEX `store_reviews_list_idx` ON `store_reviews` (`project_id`,`reviewed_at`);--> statement-breakpoint
CREATE INDEX `store_reviews_integration_idx` ON `store_reviews` (`integration_id`);