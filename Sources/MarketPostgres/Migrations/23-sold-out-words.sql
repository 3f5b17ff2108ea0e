-- sold-out words

-- Which of a word's products are sold out, in its index, so that a list of what is in
-- stock counts what it leaves out from the words alone (`HeldCountQuery`), without
-- reading each match's row.
ALTER TABLE product_word ADD COLUMN sold_out boolean NOT NULL DEFAULT false;

UPDATE product_word w SET sold_out = true FROM product p
WHERE p.id = w.product_id AND p.stock = 0 AND NOT p.hidden;

ALTER TABLE product_word DROP CONSTRAINT product_word_pkey,
    ADD PRIMARY KEY (word, product_id) INCLUDE (sold_out);

CREATE OR REPLACE FUNCTION product_word_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM product_word w USING old_rows o
    WHERE NOT o.hidden AND w.product_id = o.id AND w.word = ANY (search_words(o.search_text))
        AND (TG_OP = 'DELETE' OR NOT EXISTS (
            SELECT FROM product p WHERE p.id = o.id AND NOT p.hidden AND p.search_text = o.search_text));
END IF;
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
END $$;
