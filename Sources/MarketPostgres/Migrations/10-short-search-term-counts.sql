-- short search term counts

-- How many products on show hold each character and pair: a short term's total
-- without counting its matches, which are many for a common syllable. Kept per
-- statement, from the rows whose text or visibility changed; each statement's
-- changes are written in the order of the grams, so that writers never deadlock.
CREATE TABLE product_gram_count (gram text PRIMARY KEY, count bigint NOT NULL);

INSERT INTO product_gram_count
SELECT gram, count(*) FROM product, unnest(short_grams(search_text)) AS gram WHERE NOT hidden
GROUP BY gram;

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
END $$;

CREATE TRIGGER product_gram_count_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_gram_count_keep();

CREATE TRIGGER product_gram_count_update AFTER UPDATE ON product REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_gram_count_keep();

CREATE TRIGGER product_gram_count_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_gram_count_keep();
