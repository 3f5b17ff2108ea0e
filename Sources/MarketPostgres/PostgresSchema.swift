import Logging
import PostgresNIO

/// The database layout, one numbered migration per change; migrations only ever get appended.
/// Each is applied once, in its own transaction, and recorded in `schema_migration`. Servers that
/// start together against an empty database take turns through an advisory lock: the first applies
/// what is missing, the others find it done.
enum PostgresSchema {
    /// Each migration is a list of statements, run in one transaction.
    static let migrations: [(version: Int, name: String, statements: [String])] = [
        (
            1, "create market",
            [
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                """
                CREATE TABLE vendor (
                    id bigserial PRIMARY KEY,
                    identifier text NOT NULL UNIQUE,
                    name text NOT NULL,
                    secret_hash text NOT NULL,
                    created_at timestamptz NOT NULL)
                """,
                """
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
                    updated_at timestamptz NOT NULL)
                """,
                """
                CREATE TABLE product_image (
                    id bigserial PRIMARY KEY,
                    product_id bigint NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    position integer NOT NULL,
                    original_key text NOT NULL,
                    thumbnail_key text NOT NULL,
                    width integer NOT NULL,
                    height integer NOT NULL,
                    created_at timestamptz NOT NULL)
                """,
                "CREATE INDEX product_image_by_product ON product_image (product_id, position)",
                "CREATE INDEX product_image_by_original ON product_image (original_key)",
                "CREATE INDEX product_image_by_thumbnail ON product_image (thumbnail_key)",
                """
                CREATE TABLE delete_token (
                    token_hash text PRIMARY KEY,
                    product_id bigint NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                    issued_at timestamptz NOT NULL)
                """,
                "CREATE INDEX delete_token_by_product ON delete_token (product_id)",
                // Substring search (LIKE '%term%') through trigrams instead of reading every row.
                "CREATE INDEX product_search ON product USING gin (search_text gin_trgm_ops)",
                // The total, kept by a trigger so that a list never counts every row.
                "CREATE TABLE product_total (id integer PRIMARY KEY CHECK (id = 1), count bigint NOT NULL)",
                "INSERT INTO product_total VALUES (1, 0)",
                """
                CREATE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE product_total SET count = count + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER product_total_keep AFTER INSERT OR DELETE ON product
                    FOR EACH ROW EXECUTE FUNCTION product_total_keep()
                """,
                // Image bytes by content hash; touched_at is when a blob was last put.
                """
                CREATE TABLE image_blob (
                    key text PRIMARY KEY,
                    bytes bytea NOT NULL,
                    touched_at timestamptz NOT NULL DEFAULT now())
                """,
                "CREATE INDEX image_blob_by_touch ON image_blob (touched_at)",
                "CREATE TABLE market_setting (name text PRIMARY KEY, value bytea NOT NULL)",
            ]
        ),
        (
            2, "sessions and failed attempts",
            [
                """
                CREATE TABLE vendor_session (
                    token_hash text PRIMARY KEY,
                    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL)
                """,
                "CREATE INDEX vendor_session_by_vendor ON vendor_session (vendor_id)",
                "CREATE TABLE failed_attempt (key text PRIMARY KEY, count integer NOT NULL, last_at timestamptz NOT NULL)",
            ]
        ),
        (
            3, "rehearsals",
            [
                """
                CREATE TABLE request_record (
                    id bigserial PRIMARY KEY,
                    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                    at timestamptz NOT NULL,
                    detail bytea NOT NULL)
                """,
                "CREATE INDEX request_record_by_vendor ON request_record (vendor_id, id)",
                """
                CREATE TABLE vendor_faults (
                    vendor_id bigint PRIMARY KEY REFERENCES vendor(id) ON DELETE CASCADE,
                    faults bytea NOT NULL)
                """,
            ]
        ),
        (
            4, "operators",
            [
                "CREATE TABLE market_operator (name text PRIMARY KEY, secret_hash text NOT NULL, created_at timestamptz NOT NULL)",
                """
                CREATE TABLE operator_action (
                    id bigserial PRIMARY KEY, operator_name text NOT NULL, action text NOT NULL, at timestamptz NOT NULL)
                """,
            ]
        ),
        (
            5, "hidden products",
            [
                "ALTER TABLE product ADD COLUMN hidden boolean NOT NULL DEFAULT false",
                "CREATE INDEX product_visible ON product (id) WHERE NOT hidden",
                """
                CREATE OR REPLACE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' AND NOT NEW.hidden THEN
                        UPDATE product_total SET count = count + 1;
                    ELSIF TG_OP = 'DELETE' AND NOT OLD.hidden THEN
                        UPDATE product_total SET count = count - 1;
                    ELSIF TG_OP = 'UPDATE' AND OLD.hidden <> NEW.hidden THEN
                        UPDATE product_total SET count = count + (CASE WHEN NEW.hidden THEN -1 ELSE 1 END);
                    END IF;
                    RETURN NULL;
                END $$
                """,
                "DROP TRIGGER product_total_keep ON product",
                """
                CREATE TRIGGER product_total_keep AFTER INSERT OR DELETE OR UPDATE OF hidden ON product
                    FOR EACH ROW EXECUTE FUNCTION product_total_keep()
                """,
            ]
        ),
        (6, "products by vendor", ["CREATE INDEX product_by_vendor ON product (vendor_id, id) WHERE NOT hidden"]),
        (
            7, "catalogue version",
            [
                "CREATE TABLE catalogue_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)",
                "INSERT INTO catalogue_version VALUES (1, 0)",
                """
                CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE catalogue_version SET version = version + 1;
                    RETURN NULL;
                END $$
                """,
            ]
                + ["product", "product_image", "vendor"].map {
                    """
                    CREATE TRIGGER \($0)_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \($0)
                        FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed()
                    """
                }
        ),
        (
            8, "catalogue watchers",
            [
                // Servers that know the catalogue's version without asking: see `CatalogueWatch`.
                """
                CREATE TABLE catalogue_watcher (
                    id text PRIMARY KEY, seen_version bigint NOT NULL, lease_until timestamptz NOT NULL)
                """,
                """
                CREATE OR REPLACE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    changed bigint;
                BEGIN
                    UPDATE catalogue_version SET version = version + 1 RETURNING version INTO changed;
                    PERFORM pg_notify('\(CatalogueWatch.channel)', changed::text);
                    RETURN NULL;
                END $$
                """,
            ]
        ),
        (
            9, "short search terms",
            [
                // Trigrams find terms of three characters and more; terms of one or two are found
                // among each product's distinct characters and pairs of characters, indexed.
                """
                CREATE FUNCTION short_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                    SELECT coalesce(array_agg(DISTINCT gram), '{}') FROM (
                        SELECT substr(t, i, 1) AS gram FROM generate_series(1, length(t)) AS i
                        UNION ALL SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i) AS grams
                $$
                """,
                "CREATE INDEX product_short_search ON product USING gin (short_grams(search_text)) WHERE NOT hidden",
            ]
        ),
        (
            10, "short search term counts",
            [
                // How many products on show hold each character and pair: a short term's total
                // without counting its matches, which are many for a common syllable. Kept per
                // statement, from the rows whose text or visibility changed; each statement's
                // changes are written in the order of the grams, so that writers never deadlock.
                "CREATE TABLE product_gram_count (gram text PRIMARY KEY, count bigint NOT NULL)",
                """
                INSERT INTO product_gram_count
                SELECT gram, count(*) FROM product, unnest(short_grams(search_text)) AS gram WHERE NOT hidden
                GROUP BY gram
                """,
                """
                CREATE FUNCTION product_gram_count_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO product_gram_count AS kept (gram, count)
                        SELECT gram, count(*) FROM new_rows, unnest(short_grams(search_text)) AS gram
                        WHERE NOT hidden GROUP BY gram ORDER BY gram
                        ON CONFLICT (gram) DO UPDATE SET count = kept.count + excluded.count;
                    ELSIF TG_OP = 'DELETE' THEN
                        INSERT INTO product_gram_count AS kept (gram, count)
                        SELECT gram, -count(*) FROM old_rows, unnest(short_grams(search_text)) AS gram
                        WHERE NOT hidden GROUP BY gram ORDER BY gram
                        ON CONFLICT (gram) DO UPDATE SET count = kept.count + excluded.count;
                    ELSE
                        INSERT INTO product_gram_count AS kept (gram, count)
                        SELECT gram, sum(change) FROM (
                            SELECT o.search_text AS old_text, o.hidden AS old_hidden,
                                n.search_text AS new_text, n.hidden AS new_hidden
                            FROM old_rows o JOIN new_rows n ON n.id = o.id
                            WHERE o.search_text IS DISTINCT FROM n.search_text OR o.hidden IS DISTINCT FROM n.hidden
                        ) AS changed, LATERAL (
                            SELECT gram, -1 AS change FROM unnest(short_grams(old_text)) AS gram WHERE NOT old_hidden
                            UNION ALL
                            SELECT gram, 1 FROM unnest(short_grams(new_text)) AS gram WHERE NOT new_hidden
                        ) AS grams
                        GROUP BY gram HAVING sum(change) <> 0 ORDER BY gram
                        ON CONFLICT (gram) DO UPDATE SET count = kept.count + excluded.count;
                    END IF;
                    RETURN NULL;
                END $$
                """,
            ] + countKeepers("product_gram_count")
        ),
        (
            11, "prices in order",
            [
                // What a shopper sorts by: the price the buyer pays, in each currency, newest first
                // among equals; one index for each direction, so that neither sorts. The stock rides
                // along (with what the price is made of), so that a price range's count of what is in
                // stock reads the index alone; and what is in stock is counted as what is shown less
                // the (few) sold out.
                "CREATE INDEX product_by_lowest_price ON product (currency, (price - discount), id DESC) INCLUDE (price, discount, stock) WHERE NOT hidden",
                "CREATE INDEX product_by_highest_price ON product (currency, (price - discount) DESC, id DESC) INCLUDE (price, discount, stock) WHERE NOT hidden",
                "CREATE INDEX product_sold_out ON product (id) WHERE NOT hidden AND stock = 0",
            ]
        ),
        (
            12, "product total per statement",
            [
                // Kept once a statement, from its rows. Kept for each row, a statement that inserts
                // many products (a migration, a bulk load) updates the one total row as often, and
                // each update passes over every version of it the statement has left.
                "DROP TRIGGER product_total_keep ON product",
                """
                CREATE OR REPLACE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    change bigint;
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        SELECT count(*) INTO change FROM new_rows WHERE NOT hidden;
                    ELSIF TG_OP = 'DELETE' THEN
                        SELECT -count(*) INTO change FROM old_rows WHERE NOT hidden;
                    ELSE
                        SELECT (SELECT count(*) FROM new_rows WHERE NOT hidden)
                            - (SELECT count(*) FROM old_rows WHERE NOT hidden) INTO change;
                    END IF;
                    IF change <> 0 THEN
                        UPDATE product_total SET count = count + change;
                    END IF;
                    RETURN NULL;
                END $$
                """,
            ] + countKeepers("product_total")
        ),
        (
            13, "three-character terms among the grams",
            [
                // Terms of three characters (most Korean words) are found and counted as shorter ones
                // are: by trigram and LIKE, a common one's total counts every match. The index is made
                // again for the new grams; the counts are counted again.
                "DROP INDEX product_short_search",
                """
                CREATE OR REPLACE FUNCTION short_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                    SELECT coalesce(array_agg(DISTINCT gram), '{}') FROM (
                        SELECT substr(t, i, 1) AS gram FROM generate_series(1, length(t)) AS i
                        UNION ALL SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i
                        UNION ALL SELECT substr(t, i, 3) FROM generate_series(1, length(t) - 2) AS i) AS grams
                $$
                """,
                "CREATE INDEX product_short_search ON product USING gin (short_grams(search_text)) WHERE NOT hidden",
                "TRUNCATE product_gram_count",
                """
                INSERT INTO product_gram_count
                SELECT gram, count(*) FROM product, unnest(short_grams(search_text)) AS gram WHERE NOT hidden
                GROUP BY gram
                """,
                // A page of a term in one product of a hundred walks the newest products, if the
                // planner knows it is that common: from a hundred sampled texts it can take such a
                // term for a rare one and read the whole table instead.
                "ALTER TABLE product ALTER COLUMN search_text SET STATISTICS 1000",
                "ANALYZE product",
            ]
        ),
        (
            14, "search text's statistics as PostgreSQL keeps them",
            [
                // A walk tests each row with `strpos`, which the planner does not weigh against the
                // sampled texts; a term of four characters and more is planned against every one of
                // them, so the default hundred keeps each search's planning cheap.
                "ALTER TABLE product ALTER COLUMN search_text SET STATISTICS -1",
                "ANALYZE product",
            ]
        ),
        (
            15, "prices counted",
            [
                // A price range's total, and what is sold out, from the products counted at each
                // price (`PriceCounts`) rather than from every entry of the price index in the range.
                // Kept once a statement, from its rows, as the other counts are; a price nobody asks
                // any more leaves no row behind.
                """
                CREATE TABLE product_price_count (
                    currency text NOT NULL, amount bigint NOT NULL, in_stock boolean NOT NULL, count bigint NOT NULL,
                    PRIMARY KEY (currency, amount, in_stock))
                """,
                """
                INSERT INTO product_price_count
                SELECT currency, price - discount, stock > 0, count(*) FROM product WHERE NOT hidden GROUP BY 1, 2, 3
                """,
                """
                CREATE FUNCTION product_price_count_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
                        SELECT currency, price - discount, stock > 0, count(*) FROM new_rows
                        WHERE NOT hidden GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
                        RETURN NULL;
                    ELSIF TG_OP = 'DELETE' THEN
                        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
                        SELECT currency, price - discount, stock > 0, -count(*) FROM old_rows
                        WHERE NOT hidden GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
                    ELSE
                        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
                        SELECT currency, price - discount, stock > 0, sum(change) FROM (
                            SELECT currency, price, discount, stock, -1 AS change FROM old_rows WHERE NOT hidden
                            UNION ALL
                            SELECT currency, price, discount, stock, 1 FROM new_rows WHERE NOT hidden
                        ) AS changes
                        GROUP BY 1, 2, 3 HAVING sum(change) <> 0 ORDER BY 1, 2, 3
                        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
                    END IF;
                    DELETE FROM product_price_count
                    WHERE count = 0 AND (currency, amount, in_stock) IN (
                        SELECT currency, price - discount, stock > 0 FROM old_rows WHERE NOT hidden);
                    RETURN NULL;
                END $$
                """,
            ] + countKeepers("product_price_count")
        ),
        (
            16, "search indexes without a long list of pending entries",
            [
                // A GIN index keeps new entries in a list every search reads through, up to 4 MB by
                // default, before it merges them, so a selling market's searches slow as the list grows.
                // 256 kB (32 pages) keeps what a search reads small, and still merges new entries in
                // batches, as `openmarket migrate` needs (docs/benchmarks/search.md measures it).
                "ALTER INDEX product_search SET (gin_pending_list_limit = 256)",
                "ALTER INDEX product_short_search SET (gin_pending_list_limit = 256)",
                "SELECT gin_clean_pending_list('product_search'), gin_clean_pending_list('product_short_search')",
            ]
        ),
        (
            17, "a word's matches planned once",
            [
                // The ids of a page of the products on show whose text is `LIKE pattern`, newest or
                // oldest first after `after`, each with how many match in all. A statement with the
                // pattern in it is planned again for each pattern, a good share of a search's cost;
                // here the plan is made once a connection, for any pattern: the trigram index, then
                // each match's row. (`MatchesPageQuery` takes the page's rows.)
                """
                CREATE FUNCTION matched_page(pattern text, after bigint, newest boolean, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint, matches bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                BEGIN
                    IF newest THEN
                        RETURN QUERY WITH matched AS (
                            SELECT p.id, count(*) OVER () AS total FROM product p
                            WHERE NOT p.hidden AND p.search_text LIKE pattern)
                        SELECT m.id, m.total FROM matched m WHERE after IS NULL OR m.id < after
                        ORDER BY m.id DESC LIMIT lim OFFSET skip;
                    ELSE
                        RETURN QUERY WITH matched AS (
                            SELECT p.id, count(*) OVER () AS total FROM product p
                            WHERE NOT p.hidden AND p.search_text LIKE pattern)
                        SELECT m.id, m.total FROM matched m WHERE after IS NULL OR m.id > after
                        ORDER BY m.id LIMIT lim OFFSET skip;
                    END IF;
                END $$
                """
            ]
        ),
        (
            18, "products vacuumed after a few edits",
            [
                // An edit leaves the old row behind, still in the indexes, until a vacuum: every
                // search that matched it reads it again. PostgreSQL's autovacuum waits for a fifth
                // of the table by default (docs/benchmarks/search.md measures both).
                "ALTER TABLE product SET (autovacuum_vacuum_scale_factor = 0.005, autovacuum_vacuum_threshold = 500)"
            ]
        ),
        (
            19, "a short term's walk planned once",
            [
                // The ids of a page of the products on show whose text holds `term`, walked from the
                // newest (or oldest) after `after` and tested one by one: for a short term common
                // enough that a page is found sooner than by its index (`short_page`, migration 21).
                // Planned for each term, the statement takes longer to plan than to run; here it is
                // planned once a connection. The cursor is a bound of the walk, not a test of each
                // row, so that the one plan starts at it.
                """
                CREATE FUNCTION walked_page(term text, after bigint, newest boolean, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                BEGIN
                    IF newest THEN
                        RETURN QUERY SELECT p.id FROM product p
                        WHERE NOT p.hidden AND strpos(p.search_text, term) > 0
                            AND p.id < coalesce(after, 9223372036854775807)
                        ORDER BY p.id DESC LIMIT lim OFFSET skip;
                    ELSE
                        RETURN QUERY SELECT p.id FROM product p
                        WHERE NOT p.hidden AND strpos(p.search_text, term) > 0 AND p.id > coalesce(after, 0)
                        ORDER BY p.id LIMIT lim OFFSET skip;
                    END IF;
                END $$
                """
            ]
        ),
        (
            20, "whole words",
            [
                // A term of four characters and more with no space in it lies inside one word of
                // the text (a run between spaces and line ends). The words of four characters and
                // more of the products on show are kept (`search_word`, found by trigram, never
                // removed) with the products that hold each (`product_word`, in id order). When a
                // few words hold the term, its page and its total come from their products
                // (`found_page`, migration 21), without reading and testing each match's row.
                """
                CREATE FUNCTION search_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                    SELECT coalesce(array_agg(DISTINCT word), '{}')
                    FROM unnest(string_to_array(translate(t, chr(10), ' '), ' ')) AS word WHERE length(word) >= 4
                $$
                """,
                "CREATE TABLE product_word (word text NOT NULL, product_id bigint NOT NULL)",
                """
                INSERT INTO product_word SELECT word, id FROM product, unnest(search_words(search_text)) AS word
                WHERE NOT hidden
                """,
                "ALTER TABLE product_word ADD PRIMARY KEY (word, product_id)",
                // A word's products are counted from the index alone where a vacuum marked their
                // rows visible to all: vacuumed as often as the products (migration 18), and after
                // as many new ones, so that a selling market's word searches seldom read the rows.
                """
                ALTER TABLE product_word SET (autovacuum_vacuum_scale_factor = 0.005,
                    autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0.005)
                """,
                "CREATE TABLE search_word (word text PRIMARY KEY)",
                "INSERT INTO search_word SELECT DISTINCT word FROM product_word",
                "CREATE INDEX search_word_text ON search_word USING gin (word gin_trgm_ops)",
                // Once a statement, as the counts are kept (migration 12); new words in their order,
                // so that writers never deadlock.
                """
                CREATE FUNCTION product_word_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    \(oldWordsGone)
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        WITH came AS (
                            SELECT t.word, n.id FROM new_rows n, unnest(search_words(n.search_text)) AS t(word)
                            WHERE NOT n.hidden
                                AND NOT EXISTS (SELECT FROM product_word w WHERE w.product_id = n.id AND w.word = t.word)),
                        listed AS (INSERT INTO search_word SELECT DISTINCT word FROM came ORDER BY word ON CONFLICT DO NOTHING)
                        INSERT INTO product_word SELECT word, id FROM came;
                    END IF;
                    RETURN NULL;
                END $$
                """,
            ] + countKeepers("product_word")
        ),
        (
            21, "short words",
            [
                // Words of two and three characters are kept as well, so that a term of two or
                // three characters inside a few words takes its page from their products, found by
                // their grams (`short_page`), rather than from the index of every product's grams,
                // planned anew for each term.
                """
                CREATE OR REPLACE FUNCTION search_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                    SELECT coalesce(array_agg(DISTINCT word), '{}')
                    FROM unnest(string_to_array(translate(t, chr(10), ' '), ' ')) AS word WHERE length(word) >= 2
                $$
                """,
                """
                INSERT INTO product_word SELECT word, id FROM product, unnest(search_words(search_text)) AS word
                WHERE NOT hidden AND length(word) < 4
                """,
                "INSERT INTO search_word SELECT DISTINCT word FROM product_word WHERE length(word) < 4 ON CONFLICT DO NOTHING",
                "CREATE INDEX search_word_grams ON search_word USING gin (short_grams(word))",
                // Short words give each product several entries here: vacuumed after a tenth of a
                // percent of them change, not half a percent, so that a vacuum still comes soon enough
                // for a word's products to be counted from the index alone.
                """
                ALTER TABLE product_word SET (autovacuum_vacuum_scale_factor = 0.001,
                    autovacuum_vacuum_insert_scale_factor = 0.001)
                """,
                // The ids of a page of the products that hold one of the words `held`, newest (or
                // oldest) first after `after`: each word's products up to the page's end, merged.
                """
                CREATE FUNCTION words_page(held text[], after bigint, newest boolean, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                BEGIN
                    IF newest THEN
                        RETURN QUERY SELECT u.id
                        FROM (SELECT DISTINCT w.id FROM unnest(held) AS h(word) CROSS JOIN LATERAL (
                            SELECT x.product_id AS id FROM product_word x
                            WHERE x.word = h.word AND x.product_id < coalesce(after, 9223372036854775807)
                            ORDER BY x.product_id DESC LIMIT lim + skip) AS w) AS u
                        ORDER BY u.id DESC LIMIT lim OFFSET skip;
                    ELSE
                        RETURN QUERY SELECT u.id
                        FROM (SELECT DISTINCT w.id FROM unnest(held) AS h(word) CROSS JOIN LATERAL (
                            SELECT x.product_id AS id FROM product_word x
                            WHERE x.word = h.word AND x.product_id > coalesce(after, 0)
                            ORDER BY x.product_id LIMIT lim + skip) AS w) AS u
                        ORDER BY u.id LIMIT lim OFFSET skip;
                    END IF;
                END $$
                """,
                // The words of the products on show that hold a term with no space nor line end, when
                // up to 100 do (NULL otherwise): for a term of two or three characters (`term`), found
                // by their grams; for a longer one, `LIKE pattern`.
                """
                CREATE FUNCTION held_words(term text, pattern text) RETURNS text[] LANGUAGE plpgsql STABLE
                SET plan_cache_mode = force_generic_plan AS $$
                DECLARE
                    held text[];
                BEGIN
                    IF strpos(coalesce(pattern, term), ' ') > 0 OR strpos(coalesce(pattern, term), chr(10)) > 0
                        OR length(term) < 2 THEN
                        RETURN NULL;
                    END IF;
                    IF pattern IS NULL THEN
                        held := ARRAY(SELECT s.word FROM search_word s WHERE short_grams(s.word) @> ARRAY[term]
                            AND EXISTS (SELECT FROM product_word w WHERE w.word = s.word) LIMIT 101);
                    ELSE
                        held := ARRAY(SELECT s.word FROM search_word s WHERE s.word LIKE pattern
                            AND EXISTS (SELECT FROM product_word w WHERE w.word = s.word) LIMIT 101);
                    END IF;
                    RETURN CASE WHEN cardinality(held) <= 100 THEN held END;
                END $$
                """,
                // The page of `matched_page` (migration 17) from the products of the words that hold
                // the term, when up to 100 do; the total counted among their products, a word's
                // entries in its index alone. Otherwise (more words, or a term across words) from
                // every match. (Made in migration 20 by the same name, with the merge in it.)
                """
                CREATE OR REPLACE FUNCTION found_page(pattern text, after bigint, newest boolean, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint, matches bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                DECLARE
                    held text[] := held_words(NULL, pattern);
                    total bigint;
                BEGIN
                    IF held IS NULL THEN
                        RETURN QUERY SELECT * FROM matched_page(pattern, after, newest, lim, skip);
                        RETURN;
                    END IF;
                    total := (SELECT count(DISTINCT c.product_id) FROM product_word c WHERE c.word = ANY (held));
                    RETURN QUERY SELECT w.product_id, total FROM words_page(held, after, newest, lim, skip) AS w;
                END $$
                """,
                // The ids of a page of the products on show that hold a term of one to three
                // characters, each with how many do (kept: migration 13), the cheapest of three
                // ways, counted in rows a walk reads. A walk from the newest (or oldest) reads
                // about `reach × shown ÷ found` (`walked_page`). The term's every match through
                // the index of grams fetches each one's row, about four walked rows' worth; planned
                // for the term, so that it takes that index. The products of the words that hold
                // it cost about 50 walked rows a word.
                """
                CREATE FUNCTION short_page(term text, after bigint, newest boolean, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint, matches bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                DECLARE
                    total bigint := coalesce((SELECT c.count FROM product_gram_count c WHERE c.gram = term), 0);
                    walked float8;
                    held text[];
                BEGIN
                    IF total = 0 THEN
                        RETURN;
                    END IF;
                    walked := (lim + skip) * (SELECT t.count FROM product_total t)::float8 / total;
                    held := held_words(term, NULL);
                    IF 50 * cardinality(held) <= walked THEN
                        RETURN QUERY SELECT w.product_id, total FROM words_page(held, after, newest, lim, skip) AS w;
                    ELSIF walked <= 4 * total THEN
                        RETURN QUERY SELECT w.product_id, total FROM walked_page(term, after, newest, lim, skip) AS w;
                    ELSE
                        RETURN QUERY EXECUTE format(
                            'WITH matched AS MATERIALIZED (SELECT id FROM product WHERE NOT hidden
                                AND short_grams(search_text) @> ARRAY[$1] AND ($2::bigint IS NULL OR id %s $2))
                            SELECT id, $5 FROM matched ORDER BY id %s LIMIT $3 OFFSET $4',
                            CASE WHEN newest THEN '<' ELSE '>' END, CASE WHEN newest THEN 'DESC' ELSE 'ASC' END)
                        USING term, after, lim, skip, total;
                    END IF;
                END $$
                """,
            ]
        ),
        (
            22, "whole words in names first",
            [
                // Where `term` first stands in a product's search text (its name, a line break, its
                // description), as `ProductArrangement.Order.relevance` ranks it: 0–2 in the name,
                // 3–5 in the description; whole word, a word's start, inside a word. Inlined where
                // it is used.
                """
                CREATE FUNCTION relevance_rank(t text, term text, separators text) RETURNS integer
                LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                    SELECT CASE WHEN strpos(t, term) < strpos(t, chr(10)) THEN 0 ELSE 3 END
                        + CASE WHEN strpos(separators, substr(t, strpos(t, term) - 1, 1)) > 0
                            THEN CASE WHEN strpos(separators, substr(t, strpos(t, term) + length(term), 1)) > 0
                                THEN 0 ELSE 1 END
                            ELSE 2 END
                $$
                """,
                // A 정확도순 page of the newest `ranked` matches, ranked, each row with how many match,
                // from a walk of the matches from the newest that ranks each: it stops as soon as a
                // page's reach of them hold the term as a whole word in their name (rank 0), which
                // come before all others, so that such a page ranks a few dozen matches instead of
                // reading every match's row. No row when the page lies past the ranked matches or
                // the walk cannot tell: the list is then ranked as a whole. The matches come from
                // the products of the few words that hold the term, in growing steps; from the
                // newest products, at most 100,000 of them, when more words do: merging many words'
                // products costs more.
                """
                CREATE FUNCTION best_ranked(term text, pattern text, separators text, ranked bigint, lim bigint, skip bigint)
                RETURNS TABLE (product_id bigint, matches bigint) LANGUAGE plpgsql STABLE ROWS 20
                SET plan_cache_mode = force_generic_plan AS $$
                DECLARE
                    short boolean := length(term) <= 3;
                    held text[] := held_words(CASE WHEN short THEN term END, CASE WHEN NOT short THEN pattern END);
                    step bigint := 2 * (lim + skip);
                    chunk bigint[];
                    ids bigint[] := '{}';
                    ranks integer[] := '{}';
                    best bigint := 0;
                    total bigint;
                    match record;
                BEGIN
                    IF held IS NULL THEN
                        RETURN;
                    ELSIF cardinality(held) <= 8 THEN
                        LOOP
                            chunk := ARRAY(SELECT w.product_id FROM words_page(
                                held, chunk[cardinality(chunk)], true, least(step, ranked - cardinality(ids)), 0) AS w);
                            EXIT WHEN cardinality(chunk) = 0;
                            step := 4 * step;
                            SELECT ids || array_agg(c.id ORDER BY c.n),
                                ranks || array_agg(relevance_rank(p.search_text, term, separators) ORDER BY c.n)
                            INTO ids, ranks
                            FROM unnest(chunk) WITH ORDINALITY AS c(id, n) JOIN product p ON p.id = c.id WHERE NOT p.hidden;
                            best := (SELECT count(*) FROM unnest(ranks) AS r WHERE r = 0);
                            EXIT WHEN best >= lim + skip OR cardinality(ids) >= ranked;
                        END LOOP;
                    ELSE
                        FOR match IN SELECT p.id, relevance_rank(p.search_text, term, separators) AS rank
                            FROM (SELECT * FROM product WHERE NOT hidden ORDER BY id DESC LIMIT 100000) AS p
                            WHERE strpos(p.search_text, term) > 0 ORDER BY p.id DESC LIMIT ranked
                        LOOP
                            ids := ids || match.id;
                            ranks := ranks || match.rank;
                            IF match.rank = 0 THEN
                                best := best + 1;
                                EXIT WHEN best >= lim + skip;
                            END IF;
                        END LOOP;
                    END IF;
                    total := CASE WHEN short THEN (SELECT c.count FROM product_gram_count c WHERE c.gram = term)
                        ELSE (SELECT count(DISTINCT c.product_id) FROM product_word c WHERE c.word = ANY (held)) END;
                    IF best >= lim + skip OR cardinality(ids) >= total
                        OR (cardinality(ids) >= ranked AND lim + skip <= ranked) THEN
                        RETURN QUERY SELECT u.id, total FROM unnest(ids, ranks) AS u(id, rank)
                            ORDER BY u.rank, u.id DESC LIMIT lim OFFSET skip;
                    END IF;
                END $$
                """,
            ]
        ),
        (
            23, "sold-out words",
            [
                // Which of a word's products are sold out, in its index, so that a list of what is in
                // stock counts what it leaves out from the words alone (`HeldCountQuery`), without
                // reading each match's row.
                "ALTER TABLE product_word ADD COLUMN sold_out boolean NOT NULL DEFAULT false",
                """
                UPDATE product_word w SET sold_out = true FROM product p
                WHERE p.id = w.product_id AND p.stock = 0 AND NOT p.hidden
                """,
                """
                ALTER TABLE product_word DROP CONSTRAINT product_word_pkey,
                    ADD PRIMARY KEY (word, product_id) INCLUDE (sold_out)
                """,
                """
                CREATE OR REPLACE FUNCTION product_word_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    \(oldWordsGone)
                    IF TG_OP = 'UPDATE' THEN
                        UPDATE product_word w SET sold_out = n.stock = 0
                        FROM new_rows n JOIN old_rows o ON o.id = n.id
                        WHERE NOT n.hidden AND (n.stock = 0) <> (o.stock = 0)
                            AND w.product_id = n.id AND w.word = ANY (search_words(n.search_text));
                    END IF;
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        WITH came AS (
                            SELECT t.word, n.id, n.stock = 0 AS sold_out
                            FROM new_rows n, unnest(search_words(n.search_text)) AS t(word)
                            WHERE NOT n.hidden
                                AND NOT EXISTS (SELECT FROM product_word w WHERE w.product_id = n.id AND w.word = t.word)),
                        listed AS (INSERT INTO search_word SELECT DISTINCT word FROM came ORDER BY word ON CONFLICT DO NOTHING)
                        INSERT INTO product_word (word, product_id, sold_out) SELECT word, id, sold_out FROM came;
                    END IF;
                    RETURN NULL;
                END $$
                """,
            ]
        ),
        (
            24, "sold out among each short term's products",
            [
                // How many of the products on show that hold each character and run of two and
                // three are sold out, kept with how many hold it, so that a searched list of what
                // is in stock counts what it leaves out from the term's counts (`HeldCountQuery`)
                // rather than reading every sold-out match's row.
                "ALTER TABLE product_gram_count ADD COLUMN sold_out bigint NOT NULL DEFAULT 0",
                """
                UPDATE product_gram_count c SET sold_out = s.count FROM (
                    SELECT gram, count(*) AS count FROM product, unnest(short_grams(search_text)) AS gram
                    WHERE NOT hidden AND stock = 0 GROUP BY gram) AS s
                WHERE c.gram = s.gram
                """,
                """
                CREATE OR REPLACE FUNCTION product_gram_count_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        \(gramsCounted(in: "new_rows", as: ""))
                    ELSIF TG_OP = 'DELETE' THEN
                        \(gramsCounted(in: "old_rows", as: "-"))
                    ELSE
                        INSERT INTO product_gram_count AS kept (gram, count, sold_out)
                        SELECT gram, sum(change), sum(sold_out) FROM (
                            SELECT o.search_text AS old_text, o.hidden AS old_hidden, (o.stock = 0)::int AS old_sold_out,
                                n.search_text AS new_text, n.hidden AS new_hidden, (n.stock = 0)::int AS new_sold_out
                            FROM old_rows o JOIN new_rows n ON n.id = o.id
                            WHERE o.search_text IS DISTINCT FROM n.search_text OR o.hidden IS DISTINCT FROM n.hidden
                                OR (o.stock = 0) IS DISTINCT FROM (n.stock = 0)
                        ) AS changed, LATERAL (
                            SELECT gram, -1 AS change, -old_sold_out AS sold_out
                            FROM unnest(short_grams(old_text)) AS gram WHERE NOT old_hidden
                            UNION ALL
                            SELECT gram, 1, new_sold_out FROM unnest(short_grams(new_text)) AS gram WHERE NOT new_hidden
                        ) AS grams
                        GROUP BY gram HAVING sum(change) <> 0 OR sum(sold_out) <> 0 ORDER BY gram
                        \(gramCountsAdded);
                    END IF;
                    RETURN NULL;
                END $$
                """,
            ]
        ),
        (
            25, "team steps",
            [
                """
                CREATE TABLE team_step (
                    vendor_id bigint NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                    step text NOT NULL,
                    first_at timestamptz NOT NULL,
                    PRIMARY KEY (vendor_id, step))
                """
            ]
        ),
    ]

    /// How `product_gram_count_keep` (migration 24) adds the products of `rows` to each gram's
    /// counts, with `sign` (`-` for the rows gone).
    private static func gramsCounted(in rows: String, as sign: String) -> String {
        """
        INSERT INTO product_gram_count AS kept (gram, count, sold_out)
        SELECT gram, \(sign)count(*), \(sign)count(*) FILTER (WHERE stock = 0)
        FROM \(rows), unnest(short_grams(search_text)) AS gram
        WHERE NOT hidden GROUP BY gram ORDER BY gram
        \(gramCountsAdded);
        """
    }

    private static let gramCountsAdded = """
        ON CONFLICT (gram) DO UPDATE
        SET count = kept.count + excluded.count, sold_out = kept.sold_out + excluded.sold_out
        """

    /// What `product_word_keep` does first (migrations 20 and 23): on an update or a delete, the
    /// old rows' words go, but for a product still on show with the same text.
    private static let oldWordsGone = """
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            DELETE FROM product_word w USING old_rows o
            WHERE NOT o.hidden AND w.product_id = o.id AND w.word = ANY (search_words(o.search_text))
                AND (TG_OP = 'DELETE' OR NOT EXISTS (
                    SELECT FROM product p WHERE p.id = o.id AND NOT p.hidden AND p.search_text = o.search_text));
        END IF;
        """

    /// The triggers that keep the count `name` from each statement's rows on `product`, through the
    /// function `name_keep`: once a statement, not once a row (see migration 12).
    private static func countKeepers(_ name: String) -> [String] {
        [
            "CREATE TRIGGER \(name)_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows",
            "CREATE TRIGGER \(name)_update AFTER UPDATE ON product REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
            "CREATE TRIGGER \(name)_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows",
        ].map { "\($0) FOR EACH STATEMENT EXECUTE FUNCTION \(name)_keep()" }
    }

    /// An arbitrary number that names "the market's migrations" among advisory locks.
    static let lockKey: Int64 = 0x6f70_656e_6d6b_7431

    static func migrate(_ session: DatabaseSession) async throws {
        try await session.execute("SELECT pg_advisory_lock(\(lockKey))")
        do {
            try await session.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let applied = Set(try await session.all("SELECT version FROM schema_migration", as: Int.self))
            for migration in migrations where !applied.contains(migration.version) {
                session.logger.info("applying database migration \(migration.version): \(migration.name)")
                try await session.connection.withTransaction(logger: session.logger) { connection in
                    let step = DatabaseSession(connection: connection, logger: session.logger)
                    for statement in migration.statements {
                        try await step.execute(PostgresQuery(unsafeSQL: statement))
                    }
                    try await step.execute(
                        "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))")
                }
            }
        } catch {
            try? await session.execute("SELECT pg_advisory_unlock(\(lockKey))")
            throw error
        }
        try await session.execute("SELECT pg_advisory_unlock(\(lockKey))")
    }
}
