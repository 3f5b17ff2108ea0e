-- short words

-- Words of two and three characters are kept as well, so that a term of two or
-- three characters inside a few words takes its page from their products, found by
-- their grams (`short_page`), rather than from the index of every product's grams,
-- planned anew for each term.
CREATE OR REPLACE FUNCTION search_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT word), '{}')
    FROM unnest(string_to_array(translate(t, chr(10), ' '), ' ')) AS word WHERE length(word) >= 2
$$;

INSERT INTO product_word SELECT word, id FROM product, unnest(search_words(search_text)) AS word
WHERE NOT hidden AND length(word) < 4;

INSERT INTO search_word SELECT DISTINCT word FROM product_word WHERE length(word) < 4 ON CONFLICT DO NOTHING;

CREATE INDEX search_word_grams ON search_word USING gin (short_grams(word));

-- Short words give each product several entries here: vacuumed after a tenth of a
-- percent of them change, not half a percent, so that a vacuum still comes soon enough
-- for a word's products to be counted from the index alone.
ALTER TABLE product_word SET (autovacuum_vacuum_scale_factor = 0.001,
    autovacuum_vacuum_insert_scale_factor = 0.001);

-- The ids of a page of the products that hold one of the words `held`, newest (or
-- oldest) first after `after`: each word's products up to the page's end, merged.
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
END $$;

-- The words of the products on show that hold a term with no space nor line end, when
-- up to 100 do (NULL otherwise): for a term of two or three characters (`term`), found
-- by their grams; for a longer one, `LIKE pattern`.
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
END $$;

-- The page of `matched_page` (migration 17) from the products of the words that hold
-- the term, when up to 100 do; the total counted among their products, a word's
-- entries in its index alone. Otherwise (more words, or a term across words) from
-- every match. (Made in migration 20 by the same name, with the merge in it.)
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
END $$;

-- The ids of a page of the products on show that hold a term of one to three
-- characters, each with how many do (kept: migration 13), the cheapest of three
-- ways, counted in rows a walk reads. A walk from the newest (or oldest) reads
-- about `reach × shown ÷ found` (`walked_page`). The term's every match through
-- the index of grams fetches each one's row, about four walked rows' worth; planned
-- for the term, so that it takes that index. The products of the words that hold
-- it cost about 50 walked rows a word.
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
END $$;
