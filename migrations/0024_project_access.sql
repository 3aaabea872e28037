ALTER TABLE `account_members` ADD `project_ids` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `project_ids` text;