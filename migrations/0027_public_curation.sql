CREATE TABLE `reply_mail_opt_outs` (
	`project_id` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `email`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `reports` ADD `published` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `triaged_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `on_roadmap` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `auto_filed` integer GENERATED ALWAYS AS ((source = 'system' OR description LIKE '--- Stack Trace ---%' OR instr(description, char(10) || '--- Stack Trace ---') > 0)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `reports_roadmap_idx` ON `reports` (`project_id`,`status`,`upvotes`,`seq`,`is_private`,`published`) WHERE deleted_at IS NULL AND on_roadmap = 1;