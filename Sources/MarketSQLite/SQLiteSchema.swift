import GRDB

/// The database layout, one migration per change. Migrations only ever get appended.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        func register(_ name: String, _ sql: String) {
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        register(
            "create market",
            """
            CREATE TABLE vendor (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                identifier TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                secretHash TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE TABLE product (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                vendorId INTEGER NOT NULL REFERENCES vendor(id),
                name TEXT NOT NULL,
                description TEXT NOT NULL,
                currency TEXT NOT NULL,
                price INTEGER NOT NULL,
                discount INTEGER NOT NULL,
                stock INTEGER NOT NULL,
                coverImageId INTEGER,
                searchText TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                updatedAt DATETIME NOT NULL
            );
            CREATE TABLE productImage (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                originalKey TEXT NOT NULL,
                thumbnailKey TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX productImageByProduct ON productImage(productId, position);
            CREATE INDEX productImageByOriginal ON productImage(originalKey);
            CREATE INDEX productImageByThumbnail ON productImage(thumbnailKey);
            CREATE TABLE deleteToken (
                tokenHash TEXT PRIMARY KEY,
                productId INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
                issuedAt DATETIME NOT NULL
            );
            CREATE INDEX deleteTokenByProduct ON deleteToken(productId);
            """)
        // The total is kept by triggers so that a list never counts every row; substring
        // search goes through a trigram index instead of reading every description.
        register(
            "count and search index",
            """
            CREATE TABLE productTotal (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
            INSERT INTO productTotal VALUES (1, (SELECT count(*) FROM product));
            CREATE TRIGGER productCountUp AFTER INSERT ON product BEGIN
                UPDATE productTotal SET count = count + 1 WHERE id = 1;
            END;
            CREATE TRIGGER productCountDown AFTER DELETE ON product BEGIN
                UPDATE productTotal SET count = count - 1 WHERE id = 1;
            END;
            CREATE VIRTUAL TABLE productSearch USING fts5(
                searchText, content = 'product', content_rowid = 'id', tokenize = 'trigram');
            INSERT INTO productSearch (productSearch) VALUES ('rebuild');
            CREATE TRIGGER productSearchInsert AFTER INSERT ON product BEGIN
                INSERT INTO productSearch (rowid, searchText) VALUES (new.id, new.searchText);
            END;
            CREATE TRIGGER productSearchDelete AFTER DELETE ON product BEGIN
                INSERT INTO productSearch (productSearch, rowid, searchText)
                VALUES ('delete', old.id, old.searchText);
            END;
            CREATE TRIGGER productSearchUpdate AFTER UPDATE OF searchText ON product BEGIN
                INSERT INTO productSearch (productSearch, rowid, searchText)
                VALUES ('delete', old.id, old.searchText);
                INSERT INTO productSearch (rowid, searchText) VALUES (new.id, new.searchText);
            END;
            """)
        // Skipping to a deep page walks this narrow index instead of whole rows.
        register("newest-first index", "CREATE INDEX productNewest ON product(id)")
        register("2021 item passwords", "ALTER TABLE product ADD COLUMN passwordHash TEXT")
        register(
            "sessions and failed attempts",
            """
            CREATE TABLE vendorSession (
                tokenHash TEXT PRIMARY KEY,
                vendorId INTEGER NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                expiresAt DATETIME NOT NULL
            );
            CREATE INDEX vendorSessionByVendor ON vendorSession(vendorId);
            CREATE TABLE failedAttempt (
                key TEXT PRIMARY KEY,
                count INTEGER NOT NULL,
                lastAt DATETIME NOT NULL
            );
            """)
        register(
            "rehearsals",
            """
            CREATE TABLE requestRecord (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                vendorId INTEGER NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                at DATETIME NOT NULL,
                detail BLOB NOT NULL
            );
            CREATE INDEX requestRecordByVendor ON requestRecord(vendorId, id);
            CREATE TABLE vendorFaults (
                vendorId INTEGER PRIMARY KEY REFERENCES vendor(id) ON DELETE CASCADE,
                faults BLOB NOT NULL
            );
            """)
        // A hidden product leaves the total and search index; a partial index skips it, so hiding costs lists nothing.
        register(
            "hidden products",
            """
            ALTER TABLE product ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX productVisible ON product(id) WHERE hidden = 0;
            DROP TRIGGER productCountDown;
            CREATE TRIGGER productCountDown AFTER DELETE ON product WHEN old.hidden = 0 BEGIN
                UPDATE productTotal SET count = count - 1 WHERE id = 1;
            END;
            DROP TRIGGER productSearchDelete;
            CREATE TRIGGER productSearchDelete AFTER DELETE ON product WHEN old.hidden = 0 BEGIN
                INSERT INTO productSearch (productSearch, rowid, searchText)
                VALUES ('delete', old.id, old.searchText);
            END;
            DROP TRIGGER productSearchUpdate;
            CREATE TRIGGER productSearchUpdate AFTER UPDATE OF searchText ON product WHEN new.hidden = 0 BEGIN
                INSERT INTO productSearch (productSearch, rowid, searchText)
                VALUES ('delete', old.id, old.searchText);
                INSERT INTO productSearch (rowid, searchText) VALUES (new.id, new.searchText);
            END;
            CREATE TRIGGER productHide AFTER UPDATE OF hidden ON product
            WHEN new.hidden = 1 AND old.hidden = 0 BEGIN
                UPDATE productTotal SET count = count - 1 WHERE id = 1;
                INSERT INTO productSearch (productSearch, rowid, searchText)
                VALUES ('delete', old.id, old.searchText);
            END;
            CREATE TRIGGER productShow AFTER UPDATE OF hidden ON product
            WHEN new.hidden = 0 AND old.hidden = 1 BEGIN
                UPDATE productTotal SET count = count + 1 WHERE id = 1;
                INSERT INTO productSearch (rowid, searchText) VALUES (new.id, new.searchText);
            END;
            """)
        register(
            "operators",
            """
            CREATE TABLE marketOperator (
                name TEXT PRIMARY KEY,
                secretHash TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE TABLE operatorAction (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                operatorName TEXT NOT NULL,
                action TEXT NOT NULL,
                at DATETIME NOT NULL
            );
            """)
        register("products by vendor", "CREATE INDEX productByVendor ON product(vendorId, id) WHERE hidden = 0")
        migrator.registerMigration("catalogue version") { db in
            try db.execute(
                sql: """
                    CREATE TABLE catalogueVersion (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                    INSERT INTO catalogueVersion VALUES (1, 0);
                    """)
            for table in ["product", "productImage", "vendor"] {
                for change in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(
                        sql: """
                            CREATE TRIGGER \(table)\(change.capitalized)Version AFTER \(change) ON \(table) BEGIN
                                UPDATE catalogueVersion SET version = version + 1;
                            END
                            """)
                }
            }
        }
        // The trigram index finds terms of three characters and more; this one finds shorter ones through
        // each text's distinct characters and pairs as hex tokens (so any character is one), with how many
        // products on show hold each, so that a common syllable's total needs no count of its matches.
        register(
            "short search terms",
            """
            CREATE TABLE gramPosition (n INTEGER PRIMARY KEY);
            WITH RECURSIVE position(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM position WHERE n < \(ShortTerms.longestText))
            INSERT INTO gramPosition SELECT n FROM position;
            CREATE VIRTUAL TABLE productGrams USING fts5(
                grams, content = '', detail = none, columnsize = 0, tokenize = 'ascii');
            INSERT INTO productGrams (rowid, grams)
            SELECT id, \(ShortTerms.grams(of: "searchText")) FROM product WHERE hidden = 0;
            CREATE TABLE productGramCount (gram TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
            CREATE VIRTUAL TABLE temp.productGramsVocabulary USING fts5vocab(main, productGrams, 'row');
            -- The index folds its tokens to lower case; `hex` writes them in upper case.
            INSERT INTO productGramCount SELECT upper(term), doc FROM temp.productGramsVocabulary;
            DROP TABLE temp.productGramsVocabulary;
            \(SearchTriggers.keeping("productGrams", add: ShortTerms.add, remove: ShortTerms.remove))
            """)
        // What a shopper sorts by: the price the buyer pays, in each currency, newest first among equals; one index for
        // each direction, so that neither sorts. The stock rides along, so that a price range's count of what is in
        // stock reads the index alone; and what is in stock is counted as what is shown less the (few) sold out.
        register(
            "prices in order",
            """
            CREATE INDEX productByLowestPrice ON product(currency, price - discount, id DESC, stock) WHERE hidden = 0;
            CREATE INDEX productByHighestPrice ON product(currency, price - discount DESC, id DESC, stock) WHERE hidden = 0;
            CREATE INDEX productSoldOut ON product(id) WHERE hidden = 0 AND stock = 0;
            """)
        // A price range's total, and what is sold out, from the products counted at each price
        // (`PriceCounts`) rather than from every entry of the price index in the range.
        register("prices counted", PriceCounts.create)
        // A term of three characters and more with no space lies inside one word: when a single word holds
        // it, that word's kept count is its total, not counted through every match (`WholeWords`).
        register(
            "whole words",
            """
            CREATE TABLE searchWord (id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE, count INTEGER NOT NULL);
            CREATE VIRTUAL TABLE searchWordText USING fts5(
                word, content = 'searchWord', content_rowid = 'id', tokenize = 'trigram');
            CREATE TRIGGER searchWordAdded AFTER INSERT ON searchWord BEGIN
                INSERT INTO searchWordText (rowid, word) VALUES (new.id, new.word);
            END;
            CREATE TRIGGER searchWordGone AFTER DELETE ON searchWord BEGIN
                INSERT INTO searchWordText (searchWordText, rowid, word) VALUES ('delete', old.id, old.word);
            END;
            CREATE TRIGGER searchWordUnused AFTER UPDATE OF count ON searchWord WHEN new.count = 0 BEGIN
                DELETE FROM searchWord WHERE id = new.id;
            END;
            INSERT INTO searchWord (word, count)
            SELECT word, count(*) FROM (\(WholeWords.rows(
                of: "SELECT id, searchText AS text FROM product WHERE hidden = 0", keeping: "id, ")))
            GROUP BY word;
            \(SearchTriggers.keeping("searchWords", add: WholeWords.add, remove: WholeWords.remove))
            """)
        // How many of a term's matches are sold out, so that a searched list of what is in stock counts what
        // it leaves out without looking up each match: kept per short term beside how many hold it; for longer
        // ones, counted in a trigram index of the sold-out products alone (`SearchFilter.soldOutCountSQL`),
        // which replaces `productSoldOut`. The short terms' triggers are remade to keep the new column.
        let soldOut = "(SELECT id, searchText FROM product WHERE hidden = 0 AND stock = 0)"
        register(
            "sold out among each term's products",
            """
            ALTER TABLE productGramCount ADD COLUMN soldOut INTEGER NOT NULL DEFAULT 0;
            UPDATE productGramCount SET soldOut = s.count FROM (
                SELECT gram, count(*) AS count FROM (\(ShortTerms.gramRows(
                    of: "p.searchText", in: "\(soldOut) AS p CROSS JOIN gramPosition", keeping: "p.id, ")))
                GROUP BY gram) AS s
            WHERE productGramCount.gram = s.gram;
            \(SearchTriggers.dropping("productGrams"))
            \(SearchTriggers.keeping("productGrams", add: ShortTerms.add, remove: ShortTerms.remove))
            CREATE VIRTUAL TABLE productSoldOutSearch USING fts5(searchText, content = '', tokenize = 'trigram');
            INSERT INTO productSoldOutSearch (rowid, searchText) SELECT * FROM \(soldOut);
            \(SearchTriggers.keeping("productSoldOutSearch", add: SoldOutSearch.add, remove: SoldOutSearch.remove))
            DROP INDEX productSoldOut;
            """)
        register(
            "team steps",
            """
            CREATE TABLE teamStep (
                vendorId INTEGER NOT NULL REFERENCES vendor(id) ON DELETE CASCADE,
                step TEXT NOT NULL,
                firstAt DATETIME NOT NULL,
                PRIMARY KEY (vendorId, step)
            ) WITHOUT ROWID;
            """)
        // Every vendor but the demo's three and 2021 items' stand-in was on the class board; of those, the ones an
        // app used stay.
        register(
            "teams",
            """
            ALTER TABLE vendor ADD COLUMN team INTEGER NOT NULL DEFAULT 0;
            UPDATE vendor SET team = 1
            WHERE identifier NOT IN (
                'a09d8d1a-d1b8-11ec-9676-bd41bb2bb233', 'f27bc126-0335-11ed-9676-1776ba240ec2',
                'cd706a3e-66db-11ec-9626-796401f2341a', '00000000-0000-4000-8000-000000002021')
            OR id IN (SELECT vendorId FROM teamStep);
            """)
        register(
            "class faults",
            "CREATE TABLE classFaults (id INTEGER PRIMARY KEY CHECK (id = 1), faults BLOB NOT NULL)")
        // Teams seated in the order they joined (by id, for the teams already there): a team's own port is its seat's.
        register(
            "team seats",
            """
            ALTER TABLE vendor ADD COLUMN teamSeat INTEGER;
            UPDATE vendor
            SET teamSeat = (SELECT count(*) FROM vendor AS earlier WHERE earlier.team = 1 AND earlier.id <= vendor.id)
            WHERE team = 1;
            CREATE UNIQUE INDEX vendorByTeamSeat ON vendor(teamSeat);
            """)
        // A 2021 item's sale price of 0 was its app's way of saying there is no discount.
        register(
            "no discount said as a sale price of 0",
            """
            ALTER TABLE product ADD COLUMN zeroSalePriceSent INTEGER NOT NULL DEFAULT 0;
            UPDATE product SET discount = 0, zeroSalePriceSent = 1
            WHERE passwordHash IS NOT NULL AND price > 0 AND discount = price;
            """)
        return migrator
    }
}
