-- whole words in names first

-- Where `term` first stands in a product's search text (its name, a line break, its
-- description), as `ProductArrangement.Order.relevance` ranks it: 0–2 in the name,
-- 3–5 in the description; whole word, a word's start, inside a word. Inlined where
-- it is used.
CREATE FUNCTION relevance_rank(t text, term text, separators text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN strpos(t, term) < strpos(t, chr(10)) THEN 0 ELSE 3 END
        + CASE WHEN strpos(separators, substr(t, strpos(t, term) - 1, 1)) > 0
            THEN CASE WHEN strpos(separators, substr(t, strpos(t, term) + length(term), 1)) > 0
                THEN 0 ELSE 1 END
            ELSE 2 END
$$;

-- A 정확도순 page of the newest `ranked` matches, ranked, each row with how many match,
-- from a walk of the matches from the newest that ranks each: it stops as soon as a
-- page's reach of them hold the term as a whole word in their name (rank 0), which
-- come before all others, so that such a page ranks a few dozen matches instead of
-- reading every match's row. No row when the page lies past the ranked matches or
-- the walk cannot tell: the list is then ranked as a whole. The matches come from
-- the products of the few words that hold the term, in growing steps; from the
-- newest products, at most 100,000 of them, when more words do: merging many words'
-- products costs more.
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
END $$;
