# The clones of a demo market's 64 products, sourced by bench/run and bench/progress: product i is named with three
# words and described with five from bench/vocabulary.py, drawn as at random by the same formula in SQLite and in
# PostgreSQL (`drawn`, `varied`), and a market's folder filled up to COUNT products in one statement (`fill_sqlite`).
# Needs $work (a scratch folder) and sqlite3.

python3 bench/vocabulary.py | awk '{print NR - 1 "," $0}' >"$work/vocabulary.csv"
words=$(wc -l <"$work/vocabulary.csv")
drawn() {
  echo "(SELECT $1(word, ' '${2:-}) FROM word WHERE n IN ((i * 7919) % $words, (i * 104729 + 13) % $words,
      (i * 1299709 + 101) % $words)) AS name,
    (SELECT $1(word, ' '${2:-}) FROM word WHERE n IN ((i * 15485863 + 7) % $words, (i * 32452843 + 29) % $words,
      (i * 49979687 + 53) % $words, (i * 67867967 + 71) % $words, (i * 86028121 + 97) % $words)) AS description"
}
# A clone's price and discount: its template's, times 0.50 to 1.50 (the discount stays within the price).
varied() { echo "t.$1 * (50 + d.i % 101) / 100"; }

# fill_sqlite DATA_DIR COUNT: the demo market in DATA_DIR, cloned up to COUNT products.
fill_sqlite() {
  sqlite3 "$1/market.sqlite" <<SQL
.timeout 10000
CREATE TEMP TABLE word (n INTEGER PRIMARY KEY, word TEXT NOT NULL);
.import --csv $work/vocabulary.csv word
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 65 UNION ALL SELECT i + 1 FROM n WHERE i < $2),
drawn AS (SELECT i, 1 + i % 64 AS t, $(drawn group_concat) FROM n)
INSERT INTO product (id, vendorId, name, description, currency, price, discount, stock, searchText, createdAt, updatedAt)
SELECT d.i, t.vendorId, d.name, d.description, t.currency, $(varied price), $(varied discount), t.stock,
       d.name || char(10) || d.description, t.createdAt, t.updatedAt
FROM drawn d JOIN product t ON t.id = d.t;
INSERT INTO productImage (productId, position, originalKey, thumbnailKey, width, height, createdAt)
SELECT p.id, i.position, i.originalKey, i.thumbnailKey, i.width, i.height, i.createdAt
FROM product p JOIN productImage i ON i.productId = 1 + p.id % 64 WHERE p.id > 64;
UPDATE product SET coverImageId = (SELECT min(id) FROM productImage WHERE productId = product.id) WHERE id > 64;
COMMIT;
-- One transaction of 100,000 products leaves a write-ahead log of 150 MB that every read would look
-- through until the server's next write: put it in the database, as a market that has been
-- selling for a while has it.
PRAGMA wal_checkpoint(TRUNCATE);
SQL
}
