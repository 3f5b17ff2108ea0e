-- catalogue watchers

-- Servers that know the catalogue's version without asking: see `CatalogueWatch`.
CREATE TABLE catalogue_watcher (
    id text PRIMARY KEY, seen_version bigint NOT NULL, lease_until timestamptz NOT NULL);

CREATE OR REPLACE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed bigint;
BEGIN
    UPDATE catalogue_version SET version = version + 1 RETURNING version INTO changed;
    PERFORM pg_notify('catalogue_changed', changed::text);
    RETURN NULL;
END $$;
