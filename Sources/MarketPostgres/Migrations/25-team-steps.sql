-- team steps

CREATE TABLE team_step (
    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
    step text NOT NULL,
    first_at timestamptz NOT NULL,
    PRIMARY KEY (vendor_id, step));
