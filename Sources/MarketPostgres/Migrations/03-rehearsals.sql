-- rehearsals

CREATE TABLE request_record (
    id bigserial PRIMARY KEY,
    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    detail bytea NOT NULL);

CREATE INDEX request_record_by_vendor ON request_record (vendor_id, id);

CREATE TABLE vendor_faults (
    vendor_id bigint PRIMARY KEY REFERENCES vendor(id) ON DELETE CASCADE,
    faults bytea NOT NULL);
