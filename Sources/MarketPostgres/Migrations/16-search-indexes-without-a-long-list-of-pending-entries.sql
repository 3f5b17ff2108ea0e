-- search indexes without a long list of pending entries

-- A GIN index keeps new entries in a list every search reads through, up to 4 MB by
-- default, before it merges them, so a selling market's searches slow as the list grows.
-- 256 kB (32 pages) keeps what a search reads small, and still merges new entries in
-- batches, as `openmarket migrate` needs (docs/benchmarks/search.md measures it).
ALTER INDEX product_search SET (gin_pending_list_limit = 256);

ALTER INDEX product_short_search SET (gin_pending_list_limit = 256);

SELECT gin_clean_pending_list('product_search'), gin_clean_pending_list('product_short_search');
