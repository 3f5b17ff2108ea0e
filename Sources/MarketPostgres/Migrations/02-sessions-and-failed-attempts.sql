-- sessions and failed attempts

CREATE TABLE vendor_session (
    token_hash text PRIMARY KEY,
    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL);

CREATE INDEX vendor_session_by_vendor ON vendor_session (vendor_id);

CREATE TABLE failed_attempt (key text PRIMARY KEY, count integer NOT NULL, last_at timestamptz NOT NULL);
