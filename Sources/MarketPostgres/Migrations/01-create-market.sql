-- create market

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE vendor (
    id bigserial PRIMARY KEY,
    identifier text NOT NULL UNIQUE,
    name text NOT NULL,
    secret_hash text NOT NULL,
    created_at timestamptz NOT NULL);

CREATE TABLE product (
    id bigserial PRIMARY KEY,
    vendor_id bigint NOT NULL REFERENCES vendor(id),
    name text NOT NULL,
    description text NOT NULL,
    currency text NOT NULL,
    price bigint NOT NULL,
    discount bigint NOT NULL,
    stock bigint NOT NULL,
    cover_image_id bigint,
    search_text text NOT NULL,
    password_hash text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL);

CREATE TABLE product_image (
    id bigserial PRIMARY KEY,
    product_id bigint NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    position integer NOT NULL,
    original_key text NOT NULL,
    thumbnail_key text NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    created_at timestamptz NOT NULL);

CREATE INDEX product_image_by_product ON product_image (product_id, position);

CREATE INDEX product_image_by_original ON product_image (original_key);

CREATE INDEX product_image_by_thumbnail ON product_image (thumbnail_key);

CREATE TABLE delete_token (
    token_hash text PRIMARY KEY,
    product_id bigint NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    issued_at timestamptz NOT NULL);

CREATE INDEX delete_token_by_product ON delete_token (product_id);

-- Substring search (LIKE '%term%') through trigrams instead of reading every row.
CREATE INDEX product_search ON product USING gin (search_text gin_trgm_ops);

-- The total, kept by a trigger so that a list never counts every row.
CREATE TABLE product_total (id integer PRIMARY KEY CHECK (id = 1), count bigint NOT NULL);

INSERT INTO product_total VALUES (1, 0);

CREATE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE product_total SET count = count + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
    RETURN NULL;
END $$;

CREATE TRIGGER product_total_keep AFTER INSERT OR DELETE ON product
    FOR EACH ROW EXECUTE FUNCTION product_total_keep();

-- Image bytes by content hash; touched_at is when a blob was last put.
CREATE TABLE image_blob (
    key text PRIMARY KEY,
    bytes bytea NOT NULL,
    touched_at timestamptz NOT NULL DEFAULT now());

CREATE INDEX image_blob_by_touch ON image_blob (touched_at);

CREATE TABLE market_setting (name text PRIMARY KEY, value bytea NOT NULL);
