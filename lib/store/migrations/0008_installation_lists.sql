-- Issue 43: lists read a page at a time from indexes. Written by drizzle-kit from schema.ts, then by hand: the
-- extension first (drizzle-kit does not write extensions; PGlite loads pg_trgm in backend.ts, PostgreSQL ships it
-- in contrib and trusts it), and after the tables the triggers that keep the tokens' facts and the counts.
-- Regenerated after a merge (docs/store.md, Migrations)? Put the extension line and everything below the
-- "Triggers" line back.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "installation_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "rotating" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "legacy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "next_expiry" bigint;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "search" text GENERATED ALWAYS AS (lower(team_name || chr(10) || team_id || chr(10) || id || chr(10) || coalesce(enterprise_name, '') || chr(10) || coalesce(enterprise_id, '') || chr(10) || coalesce(app_name, '') || chr(10) || coalesce(app_id, '') || chr(10) || coalesce(installed_by, ''))) STORED;--> statement-breakpoint
CREATE INDEX "installations_list_idx" ON "installations" USING btree ("installed_at","id");--> statement-breakpoint
CREATE INDEX "installations_needs_reinstall_idx" ON "installations" USING btree ("installed_at","id") WHERE "installations"."state" = 'needs_reinstall';--> statement-breakpoint
CREATE INDEX "installations_rotating_idx" ON "installations" USING btree ("installed_at","id") WHERE "installations"."rotating";--> statement-breakpoint
CREATE INDEX "installations_legacy_idx" ON "installations" USING btree ("installed_at","id") WHERE "installations"."legacy";--> statement-breakpoint
CREATE INDEX "installations_next_expiry_idx" ON "installations" USING btree ("next_expiry","id") WHERE "installations"."state" = 'active' and "installations"."next_expiry" is not null;--> statement-breakpoint
CREATE INDEX "installations_org_idx" ON "installations" USING btree ("enterprise_id") WHERE "installations"."is_enterprise_install";--> statement-breakpoint
CREATE INDEX "installations_search_idx" ON "installations" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
-- Triggers. An installation's tokens' facts, recomputed whenever one of its tokens is written, whoever writes
-- it (a put, a settled refresh, a seed), and only written when they change.
CREATE FUNCTION switchboard_installation_facts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text;
BEGIN
  IF TG_OP = 'DELETE' THEN target := OLD.installation_id; ELSE target := NEW.installation_id; END IF;
  UPDATE installations i SET rotating = f.rotating, legacy = f.legacy, next_expiry = f.next_expiry
  FROM (
    SELECT coalesce(bool_or(refresh_token_hash IS NOT NULL), false) AS rotating,
           coalesce(bool_or(refresh_token_hash IS NULL AND NOT revoked), false) AS legacy,
           min(expires_at) FILTER (WHERE refresh_token_hash IS NOT NULL AND NOT revoked) AS next_expiry
    FROM tokens WHERE installation_id = target
  ) f
  WHERE i.id = target AND (i.rotating, i.legacy, i.next_expiry) IS DISTINCT FROM (f.rotating, f.legacy, f.next_expiry);
  IF TG_OP = 'UPDATE' AND OLD.installation_id IS DISTINCT FROM NEW.installation_id THEN
    UPDATE installations i SET rotating = f.rotating, legacy = f.legacy, next_expiry = f.next_expiry
    FROM (
      SELECT coalesce(bool_or(refresh_token_hash IS NOT NULL), false) AS rotating,
             coalesce(bool_or(refresh_token_hash IS NULL AND NOT revoked), false) AS legacy,
             min(expires_at) FILTER (WHERE refresh_token_hash IS NOT NULL AND NOT revoked) AS next_expiry
      FROM tokens WHERE installation_id = OLD.installation_id
    ) f
    WHERE i.id = OLD.installation_id AND (i.rotating, i.legacy, i.next_expiry) IS DISTINCT FROM (f.rotating, f.legacy, f.next_expiry);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The counters an installation counts in: its scope and everyone's, for each filter it is in.
CREATE FUNCTION switchboard_count_keys(r installations) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(s || ' ' || f ORDER BY s, f)
  FROM unnest(ARRAY['*', CASE WHEN r.is_enterprise_install THEN 'org:' || coalesce(r.enterprise_id, '') ELSE 'team:' || r.team_id END]) AS s,
       unnest(ARRAY['all']
         || CASE WHEN r.state = 'needs_reinstall' THEN ARRAY['needs_reinstall'] ELSE ARRAY[]::text[] END
         || CASE WHEN r.rotating THEN ARRAY['rotating'] ELSE ARRAY[]::text[] END
         || CASE WHEN r.legacy THEN ARRAY['legacy'] ELSE ARRAY[]::text[] END) AS f
$$;--> statement-breakpoint
-- Counts move in the transaction that changes what they count, at its commit (the trigger is deferred, as the
-- facts' is), and only when an installation changes filter or scope (a refresh touches none). One transaction
-- may move counters in several firings (a state change, then at commit the facts its token changes moved), so
-- key order within one statement cannot keep two writers from taking each other's counters in opposite orders:
-- every firing first takes one transaction-long advisory lock, and the transactions that move counts do so
-- one after another, each only for the moment of its commit.
CREATE FUNCTION switchboard_installation_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_keys text[] := ARRAY[]::text[];
  new_keys text[] := ARRAY[]::text[];
BEGIN
  IF TG_OP <> 'INSERT' THEN old_keys := switchboard_count_keys(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_keys := switchboard_count_keys(NEW); END IF;
  IF old_keys = new_keys THEN RETURN NULL; END IF;
  -- ADVISORY_NAMESPACE (backend.ts, "SWBD") and this lock's name.
  PERFORM pg_advisory_xact_lock(1398227524, hashtext('switchboard.installation_counts'));
  INSERT INTO installation_counts AS c (key, n)
  SELECT k, sum(d) FROM (
    SELECT unnest(new_keys) AS k, 1 AS d UNION ALL SELECT unnest(old_keys), -1
  ) AS changes GROUP BY k HAVING sum(d) <> 0 ORDER BY k
  ON CONFLICT (key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
UPDATE installations i SET rotating = f.rotating, legacy = f.legacy, next_expiry = f.next_expiry
FROM (
  SELECT installation_id,
         bool_or(refresh_token_hash IS NOT NULL) AS rotating,
         bool_or(refresh_token_hash IS NULL AND NOT revoked) AS legacy,
         min(expires_at) FILTER (WHERE refresh_token_hash IS NOT NULL AND NOT revoked) AS next_expiry
  FROM tokens GROUP BY installation_id
) f
WHERE i.id = f.installation_id;--> statement-breakpoint
INSERT INTO installation_counts (key, n)
SELECT k, count(*) FROM installations, unnest(switchboard_count_keys(installations)) AS k GROUP BY k;--> statement-breakpoint
-- Deferred to the commit: a put deletes and rewrites every token of a record, and the facts (with the counts
-- they move) are then worked out once, from what the transaction leaves. Only for the columns the facts read:
-- a refresher's claim or release (refresh_claimed_until) runs no trigger.
CREATE CONSTRAINT TRIGGER tokens_installation_facts
  AFTER INSERT OR DELETE OR UPDATE OF refresh_token_hash, revoked, expires_at, installation_id ON tokens
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION switchboard_installation_facts();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER installations_counts AFTER INSERT OR UPDATE OR DELETE ON installations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION switchboard_installation_counts();
