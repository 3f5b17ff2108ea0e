-- whole words

-- A term of four characters and more with no space in it lies inside one word of
-- the text (a run between spaces and line ends). The words of four characters and
-- more of the products on show are kept (`search_word`, found by trigram, never
-- removed) with the products that hold each (`product_word`, in id order). When a
-- few words hold the term, its page and its total come from their products
-- (`found_page`, migration 21), without reading and testing each match's row.
CREATE FUNCTION search_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT word), '{}')
    FROM unnest(string_to_array(translate(t, chr(10), ' '), ' ')) AS word WHERE length(word) >= 4
$$;

CREATE TABLE product_word (word text NOT NULL, product_id bigint NOT NULL);

INSERT INTO product_word SELECT word, id FROM product, unnest(search_words(search_text)) AS word
WHERE NOT hidden;

ALTER TABLE product_word ADD PRIMARY KEY (word, product_id);

-- A word's products are counted from the index alone where a vacuum marked their
-- rows visible to all: vacuumed as often as the products (migration 18), and after
-- as many new ones, so that a selling market's word searches seldom read the rows.
ALTER TABLE product_word SET (autovacuum_vacuum_scale_factor = 0.005,
    autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0.005);

CREATE TABLE search_word (word text PRIMARY KEY);

INSERT INTO search_word SELECT DISTINCT word FROM product_word;

CREATE INDEX search_word_text ON search_word USING gin (word gin_trgm_ops);

-- Once a statement, as the counts are kept (migration 12); new words in their order,
-- so that writers never deadlock.
CREATE FUNCTION product_word_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM product_word w USING old_rows o
    WHERE NOT o.hidden AND w.product_id = o.id AND w.word = ANY (search_words(o.search_text))
        AND (TG_OP = 'DELETE' OR NOT EXISTS (
            SELECT FROM product p WHERE p.id = o.id AND NOT p.hidden AND p.search_text = o.search_text));
END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        WITH came AS (
            SELECT t.word, n.id FROM new_rows n, unnest(search_words(n.search_text)) AS t(word)
            WHERE NOT n.hidden
                AND NOT EXISTS (SELECT FROM product_word w WHERE w.product_id = n.id AND w.word = t.word)),
        listed AS (INSERT INTO search_word SELECT DISTINCT word FROM came ORDER BY word ON CONFLICT DO NOTHING)
        INSERT INTO product_word SELECT word, id FROM came;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER product_word_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_word_keep();

CREATE TRIGGER product_word_update AFTER UPDATE ON product REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_word_keep();

CREATE TRIGGER product_word_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_word_keep();
