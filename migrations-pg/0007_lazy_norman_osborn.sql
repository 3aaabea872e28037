CREATE TABLE "discord_apps" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"application_id" text NOT NULL,
	"public_key" text NOT NULL,
	"bot_token_enc" text NOT NULL,
	"bot_token_hint" text NOT NULL,
	"guild_id" text NOT NULL,
	"reply_channel_id" text,
	"replies_enabled" integer DEFAULT 1 NOT NULL,
	"reports_per_hour" integer DEFAULT 10 NOT NULL,
	"blocked_user_ids" text DEFAULT '[]' NOT NULL,
	"command_registered_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "discord_apps_project_unique" UNIQUE("project_id"),
	CONSTRAINT "discord_apps_application_unique" UNIQUE("application_id")
);
--> statement-breakpoint
CREATE TABLE "discord_submissions" (
	"interaction_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payload" text NOT NULL,
	"report_id" text,
	"report_number" integer,
	"channel_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discord_apps" ADD CONSTRAINT "discord_apps_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_submissions" ADD CONSTRAINT "discord_submissions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_submissions" ADD CONSTRAINT "discord_submissions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discord_submissions_user_idx" ON "discord_submissions" USING btree ("project_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "discord_submissions_report_idx" ON "discord_submissions" USING btree ("report_id");