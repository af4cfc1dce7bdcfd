ALTER TABLE "installations" ADD COLUMN "bot_id" text;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "upstream_instance_id" text;