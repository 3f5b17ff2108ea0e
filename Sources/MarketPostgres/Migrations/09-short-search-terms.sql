-- short search terms

-- Trigrams find terms of three characters and more; terms of one or two are found
-- among each product's distinct characters and pairs of characters, indexed.
CREATE FUNCTION short_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT gram), '{}') FROM (
        SELECT substr(t, i, 1) AS gram FROM generate_series(1, length(t)) AS i
        UNION ALL SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i) AS grams
$$;

CREATE INDEX product_short_search ON product USING gin (short_grams(search_text)) WHERE NOT hidden;
