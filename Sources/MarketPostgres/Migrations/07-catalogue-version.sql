-- catalogue version

CREATE TABLE catalogue_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);

INSERT INTO catalogue_version VALUES (1, 0);

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalogue_version SET version = version + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER product_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();

CREATE TRIGGER product_image_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_image
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();

CREATE TRIGGER vendor_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vendor
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
