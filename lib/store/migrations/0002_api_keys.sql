CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"app_key" text NOT NULL,
	"app_id" text,
	"team_ids" jsonb,
	"created_at" bigint NOT NULL,
	"created_by" text,
	"revoked_at" bigint,
	"last_used_at" bigint,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "token_api_uses" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"team_id" text NOT NULL,
	"installation_id" text,
	"kind" text NOT NULL,
	"user_id" text,
	"refreshed" boolean NOT NULL,
	"status" integer NOT NULL,
	"error" text,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "token_api_uses_key_seq_idx" ON "token_api_uses" USING btree ("key_id","seq");