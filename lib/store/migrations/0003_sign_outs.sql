CREATE TABLE "sign_outs" (
	"person" text PRIMARY KEY NOT NULL,
	"generation" integer NOT NULL,
	"signed_out_at" bigint NOT NULL
);
