-- products vacuumed after a few edits

-- An edit leaves the old row behind, still in the indexes, until a vacuum: every
-- search that matched it reads it again. PostgreSQL's autovacuum waits for a fifth
-- of the table by default (docs/benchmarks/search.md measures both).
ALTER TABLE product SET (autovacuum_vacuum_scale_factor = 0.005, autovacuum_vacuum_threshold = 500);
