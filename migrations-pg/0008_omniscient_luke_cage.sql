CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"scopes" text NOT NULL,
	"project_id" text,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "debug_file_chunks" (
	"user_id" text NOT NULL,
	"sha1" text NOT NULL,
	"file_key" text NOT NULL,
	"size" bigint NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "debug_file_chunks_user_id_sha1_pk" PRIMARY KEY("user_id","sha1")
);
--> statement-breakpoint
CREATE TABLE "debug_files" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"arch" text,
	"debug_id" text,
	"code_id" text,
	"debug_ids" text,
	"release" text,
	"dist" text,
	"size" bigint NOT NULL,
	"checksum" text NOT NULL,
	"file_key" text NOT NULL,
	"index_key" text,
	"detail" text,
	"uploaded_at" bigint NOT NULL,
	"crashes_symbolicated" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "debug_files_project_checksum_unique" UNIQUE("project_id","checksum")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debug_file_chunks" ADD CONSTRAINT "debug_file_chunks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debug_files" ADD CONSTRAINT "debug_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "debug_file_chunks_received_idx" ON "debug_file_chunks" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "debug_files_project_uploaded_idx" ON "debug_files" USING btree ("project_id","uploaded_at");--> statement-breakpoint
CREATE INDEX "debug_files_project_debug_id_idx" ON "debug_files" USING btree ("project_id","debug_id");