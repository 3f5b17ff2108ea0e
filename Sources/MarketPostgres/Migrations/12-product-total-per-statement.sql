-- product total per statement

-- Kept once a statement, from its rows. Kept for each row, a statement that inserts
-- many products (a migration, a bulk load) updates the one total row as often, and
-- each update passes over every version of it the statement has left.
DROP TRIGGER product_total_keep ON product;

CREATE OR REPLACE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*) INTO change FROM new_rows WHERE NOT hidden;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT -count(*) INTO change FROM old_rows WHERE NOT hidden;
    ELSE
        SELECT (SELECT count(*) FROM new_rows WHERE NOT hidden)
            - (SELECT count(*) FROM old_rows WHERE NOT hidden) INTO change;
    END IF;
    IF change <> 0 THEN
        UPDATE product_total SET count = count + change;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER product_total_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_total_keep();

CREATE TRIGGER product_total_update AFTER UPDATE ON product REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_total_keep();

CREATE TRIGGER product_total_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_total_keep();
