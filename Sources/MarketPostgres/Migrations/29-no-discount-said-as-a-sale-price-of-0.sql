-- A 2021 item's sale price of 0 was its app's way of saying there is no discount.

ALTER TABLE product ADD COLUMN zero_sale_price_sent boolean NOT NULL DEFAULT false;
UPDATE product SET discount = 0, zero_sale_price_sent = true
WHERE password_hash IS NOT NULL AND price > 0 AND discount = price;
