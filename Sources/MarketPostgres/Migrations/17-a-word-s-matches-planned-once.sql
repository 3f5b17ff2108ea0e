-- a word's matches planned once

-- The ids of a page of the products on show whose text is `LIKE pattern`, newest or
-- oldest first after `after`, each with how many match in all. A statement with the
-- pattern in it is planned again for each pattern, a good share of a search's cost;
-- here the plan is made once a connection, for any pattern: the trigram index, then
-- each match's row. (`MatchesPageQuery` takes the page's rows.)
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
END $$;
