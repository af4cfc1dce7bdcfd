CREATE TABLE "config_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner" text,
	"token_sealed" text NOT NULL,
	"refresh_token_sealed" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"rotated_at" bigint NOT NULL,
	"team_id" text,
	"user_id" text
);
--> statement-breakpoint
CREATE TABLE "installations" (
	"id" text PRIMARY KEY NOT NULL,
	"app_key" text NOT NULL,
	"app_id" text,
	"app_name" text,
	"team_id" text NOT NULL,
	"team_name" text NOT NULL,
	"enterprise_id" text,
	"enterprise_name" text,
	"bot_user_id" text,
	"authed_user_id" text,
	"state" text NOT NULL,
	"problem" text,
	"uninstalled_at" bigint,
	"installed_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"installed_by" text,
	"version" integer DEFAULT 1 NOT NULL,
	"webhook_channel" text,
	"webhook_channel_id" text,
	"webhook_configuration_url" text,
	"webhook_url_sealed" text,
	CONSTRAINT "installations_state_check" CHECK ("installations"."state" in ('active', 'needs_reinstall'))
);
--> statement-breakpoint
CREATE TABLE "pasted_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text,
	"label" text NOT NULL,
	"url_sealed" text NOT NULL,
	"url_hash" text NOT NULL,
	"masked_url" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_intents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"refresh_token_sealed" text NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"started_at" bigint NOT NULL,
	"settled_at" bigint,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "timeline_entries" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"at" bigint NOT NULL,
	"entry" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"value_sealed" text NOT NULL,
	"refresh_token_sealed" text,
	"refresh_token_hash" text,
	"expires_at" bigint,
	"scopes" text[] NOT NULL,
	"revoked" boolean DEFAULT false NOT NULL,
	"issued_at" bigint NOT NULL,
	CONSTRAINT "tokens_kind_check" CHECK ("tokens"."kind" in ('bot', 'user'))
);
--> statement-breakpoint
CREATE TABLE "webhook_sends" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"owner" text,
	"webhook_id" text NOT NULL,
	"webhook_label" text NOT NULL,
	"sent_at" bigint NOT NULL,
	"preview" text NOT NULL,
	"status" integer NOT NULL,
	"ok" boolean NOT NULL,
	"result" text NOT NULL,
	"duration_ms" integer,
	CONSTRAINT "webhook_sends_id_unique" UNIQUE("id")
);
--> statement-breakpoint
ALTER TABLE "refresh_intents" ADD CONSTRAINT "refresh_intents_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_entries" ADD CONSTRAINT "timeline_entries_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "config_tokens_owner_idx" ON "config_tokens" USING btree (coalesce("owner", ''));--> statement-breakpoint
CREATE INDEX "installations_team_idx" ON "installations" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pasted_webhooks_owner_url_idx" ON "pasted_webhooks" USING btree (coalesce("owner", ''),"url_hash");--> statement-breakpoint
CREATE INDEX "refresh_intents_unsettled_idx" ON "refresh_intents" USING btree ("started_at") WHERE "refresh_intents"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "refresh_intents_hash_idx" ON "refresh_intents" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "timeline_installation_seq_idx" ON "timeline_entries" USING btree ("installation_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_installation_kind_user_idx" ON "tokens" USING btree ("installation_id","kind",coalesce("user_id", ''));--> statement-breakpoint
CREATE INDEX "tokens_expires_idx" ON "tokens" USING btree ("expires_at") WHERE "tokens"."refresh_token_hash" is not null and not "tokens"."revoked";--> statement-breakpoint
CREATE INDEX "tokens_refresh_hash_idx" ON "tokens" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "webhook_sends_owner_seq_idx" ON "webhook_sends" USING btree ("owner","seq");