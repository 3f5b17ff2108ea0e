/// The index of one- and two-character terms (`productGrams`): each product's distinct characters and
/// character pairs as hex of their UTF-8 bytes, so a short term is found exactly where it is a substring.
/// How many products hold each token, and how many of those are sold out, is in `productGramCount`.
enum ShortTerms {
    /// The longest search text, in Unicode scalars, whose every pair is indexed: well above what a name and
    /// description may hold, leaving room for accents and marks written as scalars of their own.
    static let longestText = 16_384

    /// The SQL of the distinct tokens (`gram`) of `text`, one row each, for each row of `rows`
    /// (which hold the positions `n`), after its other `columns`.
    static func gramRows(of text: String, in rows: String = "gramPosition", keeping columns: String = "") -> String {
        """
        SELECT \(columns)hex(substr(\(text), n, 1)) AS gram FROM \(rows) WHERE n <= length(\(text))
        UNION SELECT \(columns)hex(substr(\(text), n, 2)) FROM \(rows) WHERE n < length(\(text))
        """
    }

    /// The SQL of `column`'s tokens, as the index is given them.
    static func grams(of column: String) -> String { "(SELECT group_concat(gram, ' ') FROM (\(gramRows(of: column))))" }

    static func add(_ row: String) -> String {
        """
        INSERT INTO productGrams (rowid, grams) VALUES (\(row).id, \(grams(of: "\(row).searchText")));
        INSERT INTO productGramCount (gram, count, soldOut)
        SELECT gram, 1, \(row).stock = 0 FROM (\(gramRows(of: "\(row).searchText"))) WHERE true
        ON CONFLICT (gram) DO UPDATE SET count = count + 1, soldOut = soldOut + excluded.soldOut;
        """
    }

    /// A contentless index forgets a row when told the tokens it was given.
    static func remove(_ row: String) -> String {
        """
        INSERT INTO productGrams (productGrams, rowid, grams) VALUES ('delete', \(row).id, \(grams(of: "\(row).searchText")));
        UPDATE productGramCount SET count = count - 1, soldOut = soldOut - (\(row).stock = 0)
        WHERE gram IN (\(gramRows(of: "\(row).searchText")));
        """
    }

    /// A term of one or two characters as a token, as SQLite's `hex` writes it.
    static func token(_ term: String) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(term.utf8.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// The index of whole words (`searchWord`): each word of three characters or more (between spaces and line
/// ends) of the products on show, with how many hold it, found by its trigrams (`searchWordText`). When a
/// single word holds a term with no space or line end, that word's count is the term's total.
enum WholeWords {
    /// The distinct words (`word`) of each `text` that `texts` selects, with its other `columns`; each text's
    /// characters walked in turn (`CROSS JOIN` keeps SQLite from walking the positions first, which takes far longer).
    static func rows(of texts: String, keeping columns: String = "") -> String {
        """
        SELECT DISTINCT \(columns)word FROM (
            SELECT \(columns)substr(t, n, instr(substr(t, n) || ' ', ' ') - 1) AS word
            FROM (SELECT *, replace(text, char(10), ' ') AS t FROM (\(texts))) CROSS JOIN gramPosition
            WHERE n <= length(t) AND substr(t, n, 1) <> ' ' AND (n = 1 OR substr(t, n - 1, 1) = ' '))
        WHERE length(word) >= 3
        """
    }

    static func add(_ row: String) -> String {
        """
        INSERT INTO searchWord (word, count) SELECT word, 1 FROM (\(rows(of: "SELECT \(row).searchText AS text"))) WHERE true
        ON CONFLICT (word) DO UPDATE SET count = count + 1;
        """
    }

    static func remove(_ row: String) -> String {
        "UPDATE searchWord SET count = count - 1 WHERE word IN (\(rows(of: "SELECT \(row).searchText AS text")));"
    }

    /// Whether a term is found through the one word that holds it.
    static func holdsWhole(_ term: String) -> Bool { !term.contains(" ") && !term.contains("\n") }
}

/// The trigram index of the products on show that are sold out (`productSoldOutSearch`), which counts how many of a
/// term's matches a list of what is in stock leaves out: a common term's matches are many, its sold-out ones few.
enum SoldOutSearch {
    static func add(_ row: String) -> String {
        """
        INSERT INTO productSoldOutSearch (rowid, searchText) SELECT \(row).id, \(row).searchText WHERE \(row).stock = 0;
        """
    }

    /// A contentless index forgets a row when told the text it was given.
    static func remove(_ row: String) -> String {
        """
        INSERT INTO productSoldOutSearch (productSoldOutSearch, rowid, searchText)
        SELECT 'delete', \(row).id, \(row).searchText WHERE \(row).stock = 0;
        """
    }
}

/// The triggers, named after `name`, that keep an index of the products on show: what `add` and `remove` make of a row
/// (`new` or `old`) as products come, change (in text or stock), go, hide and show again.
enum SearchTriggers {
    /// The triggers `keeping` made.
    static func dropping(_ name: String) -> String {
        ["Insert", "Delete", "Update", "Hide", "Show"].map { "DROP TRIGGER \(name)\($0);" }.joined(separator: "\n")
    }

    static func keeping(_ name: String, add: (String) -> String, remove: (String) -> String) -> String {
        """
        CREATE TRIGGER \(name)Insert AFTER INSERT ON product BEGIN
            \(add("new"))
        END;
        CREATE TRIGGER \(name)Delete AFTER DELETE ON product WHEN old.hidden = 0 BEGIN
            \(remove("old"))
        END;
        CREATE TRIGGER \(name)Update AFTER UPDATE OF searchText, stock ON product WHEN new.hidden = 0 BEGIN
            \(remove("old"))
            \(add("new"))
        END;
        CREATE TRIGGER \(name)Hide AFTER UPDATE OF hidden ON product
        WHEN new.hidden = 1 AND old.hidden = 0 BEGIN
            \(remove("old"))
        END;
        CREATE TRIGGER \(name)Show AFTER UPDATE OF hidden ON product
        WHEN new.hidden = 0 AND old.hidden = 1 BEGIN
            \(add("new"))
        END;
        """
    }
}
