-- search text's statistics as PostgreSQL keeps them

-- A walk tests each row with `strpos`, which the planner does not weigh against the
-- sampled texts; a term of four characters and more is planned against every one of
-- them, so the default hundred keeps each search's planning cheap.
ALTER TABLE product ALTER COLUMN search_text SET STATISTICS -1;

ANALYZE product;
