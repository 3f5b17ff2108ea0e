-- prices in order

-- What a shopper sorts by: the price the buyer pays, in each currency, newest first
-- among equals; one index for each direction, so that neither sorts. The stock rides
-- along (with what the price is made of), so that a price range's count of what is in
-- stock reads the index alone; and what is in stock is counted as what is shown less
-- the (few) sold out.
CREATE INDEX product_by_lowest_price ON product (currency, (price - discount), id DESC) INCLUDE (price, discount, stock) WHERE NOT hidden;

CREATE INDEX product_by_highest_price ON product (currency, (price - discount) DESC, id DESC) INCLUDE (price, discount, stock) WHERE NOT hidden;

CREATE INDEX product_sold_out ON product (id) WHERE NOT hidden AND stock = 0;
