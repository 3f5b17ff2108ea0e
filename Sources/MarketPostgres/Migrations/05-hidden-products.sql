-- hidden products

ALTER TABLE product ADD COLUMN hidden boolean NOT NULL DEFAULT false;

CREATE INDEX product_visible ON product (id) WHERE NOT hidden;

CREATE OR REPLACE FUNCTION product_total_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND NOT NEW.hidden THEN
        UPDATE product_total SET count = count + 1;
    ELSIF TG_OP = 'DELETE' AND NOT OLD.hidden THEN
        UPDATE product_total SET count = count - 1;
    ELSIF TG_OP = 'UPDATE' AND OLD.hidden <> NEW.hidden THEN
        UPDATE product_total SET count = count + (CASE WHEN NEW.hidden THEN -1 ELSE 1 END);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER product_total_keep ON product;

CREATE TRIGGER product_total_keep AFTER INSERT OR DELETE OR UPDATE OF hidden ON product
    FOR EACH ROW EXECUTE FUNCTION product_total_keep();
