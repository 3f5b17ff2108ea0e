-- operators

CREATE TABLE market_operator (name text PRIMARY KEY, secret_hash text NOT NULL, created_at timestamptz NOT NULL);

CREATE TABLE operator_action (
    id bigserial PRIMARY KEY, operator_name text NOT NULL, action text NOT NULL, at timestamptz NOT NULL);
