-- prices counted

-- A price range's total, and what is sold out, from the products counted at each
-- price (`PriceCounts`) rather than from every entry of the price index in the range.
-- Kept once a statement, from its rows, as the other counts are; a price nobody asks
-- any more leaves no row behind.
CREATE TABLE product_price_count (
    currency text NOT NULL, amount bigint NOT NULL, in_stock boolean NOT NULL, count bigint NOT NULL,
    PRIMARY KEY (currency, amount, in_stock));

INSERT INTO product_price_count
SELECT currency, price - discount, stock > 0, count(*) FROM product WHERE NOT hidden GROUP BY 1, 2, 3;

CREATE FUNCTION product_price_count_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
        SELECT currency, price - discount, stock > 0, count(*) FROM new_rows
        WHERE NOT hidden GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
        RETURN NULL;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
        SELECT currency, price - discount, stock > 0, -count(*) FROM old_rows
        WHERE NOT hidden GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
    ELSE
        INSERT INTO product_price_count AS kept (currency, amount, in_stock, count)
        SELECT currency, price - discount, stock > 0, sum(change) FROM (
            SELECT currency, price, discount, stock, -1 AS change FROM old_rows WHERE NOT hidden
            UNION ALL
            SELECT currency, price, discount, stock, 1 FROM new_rows WHERE NOT hidden
        ) AS changes
        GROUP BY 1, 2, 3 HAVING sum(change) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (currency, amount, in_stock) DO UPDATE SET count = kept.count + excluded.count;
    END IF;
    DELETE FROM product_price_count
    WHERE count = 0 AND (currency, amount, in_stock) IN (
        SELECT currency, price - discount, stock > 0 FROM old_rows WHERE NOT hidden);
    RETURN NULL;
END $$;

CREATE TRIGGER product_price_count_insert AFTER INSERT ON product REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_price_count_keep();

CREATE TRIGGER product_price_count_update AFTER UPDATE ON product REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_price_count_keep();

CREATE TRIGGER product_price_count_delete AFTER DELETE ON product REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_price_count_keep();
