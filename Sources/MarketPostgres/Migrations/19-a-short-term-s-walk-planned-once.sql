-- a short term's walk planned once

-- The ids of a page of the products on show whose text holds `term`, walked from the
-- newest (or oldest) after `after` and tested one by one: for a short term common
-- enough that a page is found sooner than by its index (`short_page`, migration 21).
-- Planned for each term, the statement takes longer to plan than to run; here it is
-- planned once a connection. The cursor is a bound of the walk, not a test of each
-- row, so that the one plan starts at it.
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
END $$;
