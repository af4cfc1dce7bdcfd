CREATE TABLE "collections" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text,
	"owner_name" text NOT NULL,
	"team_id" text,
	"name" text NOT NULL,
	"shared_with_team" boolean DEFAULT false NOT NULL,
	"link_hash" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "collections_link_hash_unique" UNIQUE("link_hash")
);
--> statement-breakpoint
CREATE TABLE "saved_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"method" text NOT NULL,
	"http_method" text NOT NULL,
	"encoding" text NOT NULL,
	"token_kind" text NOT NULL,
	"args" jsonb NOT NULL,
	"bindings" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "saved_requests_http_method_check" CHECK ("saved_requests"."http_method" in ('GET', 'POST')),
	CONSTRAINT "saved_requests_encoding_check" CHECK ("saved_requests"."encoding" in ('form', 'json')),
	CONSTRAINT "saved_requests_token_kind_check" CHECK ("saved_requests"."token_kind" in ('bot', 'user'))
);
--> statement-breakpoint
ALTER TABLE "saved_requests" ADD CONSTRAINT "saved_requests_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collections_owner_idx" ON "collections" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "collections_team_shared_idx" ON "collections" USING btree ("team_id") WHERE "collections"."shared_with_team";--> statement-breakpoint
CREATE INDEX "saved_requests_collection_idx" ON "saved_requests" USING btree ("collection_id","position");