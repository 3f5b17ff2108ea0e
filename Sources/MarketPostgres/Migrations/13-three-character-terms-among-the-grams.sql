-- three-character terms among the grams

-- Terms of three characters (most Korean words) are found and counted as shorter ones
-- are: by trigram and LIKE, a common one's total counts every match. The index is made
-- again for the new grams; the counts are counted again.
DROP INDEX product_short_search;

CREATE OR REPLACE FUNCTION short_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT gram), '{}') FROM (
        SELECT substr(t, i, 1) AS gram FROM generate_series(1, length(t)) AS i
        UNION ALL SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i
        UNION ALL SELECT substr(t, i, 3) FROM generate_series(1, length(t) - 2) AS i) AS grams
$$;

CREATE INDEX product_short_search ON product USING gin (short_grams(search_text)) WHERE NOT hidden;

TRUNCATE product_gram_count;

INSERT INTO product_gram_count
SELECT gram, count(*) FROM product, unnest(short_grams(search_text)) AS gram WHERE NOT hidden
GROUP BY gram;

-- A page of a term in one product of a hundred walks the newest products, if the
-- planner knows it is that common: from a hundred sampled texts it can take such a
-- term for a rare one and read the whole table instead.
ALTER TABLE product ALTER COLUMN search_text SET STATISTICS 1000;

ANALYZE product;
