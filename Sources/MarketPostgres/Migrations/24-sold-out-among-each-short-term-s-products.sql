-- sold out among each short term's products

-- How many of the products on show that hold each character and run of two and
-- three are sold out, kept with how many hold it, so that a searched list of what
-- is in stock counts what it leaves out from the term's counts (`HeldCountQuery`)
-- rather than reading every sold-out match's row.
ALTER TABLE product_gram_count ADD COLUMN sold_out bigint NOT NULL DEFAULT 0;

UPDATE product_gram_count c SET sold_out = s.count FROM (
    SELECT gram, count(*) AS count FROM product, unnest(short_grams(search_text)) AS gram
    WHERE NOT hidden AND stock = 0 GROUP BY gram) AS s
WHERE c.gram = s.gram;

CREATE OR REPLACE FUNCTION product_gram_count_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO product_gram_count AS kept (gram, count, sold_out)
SELECT gram, count(*), count(*) FILTER (WHERE stock = 0)
FROM new_rows, unnest(short_grams(search_text)) AS gram
WHERE NOT hidden GROUP BY gram ORDER BY gram
ON CONFLICT (gram) DO UPDATE
SET count = kept.count + excluded.count, sold_out = kept.sold_out + excluded.sold_out;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO product_gram_count AS kept (gram, count, sold_out)
SELECT gram, -count(*), -count(*) FILTER (WHERE stock = 0)
FROM old_rows, unnest(short_grams(search_text)) AS gram
WHERE NOT hidden GROUP BY gram ORDER BY gram
ON CONFLICT (gram) DO UPDATE
SET count = kept.count + excluded.count, sold_out = kept.sold_out + excluded.sold_out;
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
        ON CONFLICT (gram) DO UPDATE
SET count = kept.count + excluded.count, sold_out = kept.sold_out + excluded.sold_out;
    END IF;
    RETURN NULL;
END $$;
