-- products by vendor

CREATE INDEX product_by_vendor ON product (vendor_id, id) WHERE NOT hidden;
