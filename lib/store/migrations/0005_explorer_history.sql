CREATE TABLE "explorer_history" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"owner" text,
	"at" bigint NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"installation_id" text NOT NULL,
	"token_kind" text NOT NULL,
	"http_method" text NOT NULL,
	"encoding" text NOT NULL,
	"args" jsonb NOT NULL,
	"stripped" text[] NOT NULL,
	"outcome" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"summary" text NOT NULL,
	"count" integer,
	"pages" integer,
	"answer" text,
	"answer_bytes" integer NOT NULL,
	"truncated" boolean NOT NULL,
	"saved_request_id" text,
	CONSTRAINT "explorer_history_id_unique" UNIQUE("id"),
	CONSTRAINT "explorer_history_kind_check" CHECK ("explorer_history"."kind" in ('call', 'all'))
);
--> statement-breakpoint
CREATE INDEX "explorer_history_owner_seq_idx" ON "explorer_history" USING btree ("owner","seq");--> statement-breakpoint
CREATE INDEX "explorer_history_saved_idx" ON "explorer_history" USING btree ("owner","saved_request_id","seq") WHERE "explorer_history"."saved_request_id" is not null;