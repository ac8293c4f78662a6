-- Up Migration
-- The notes agents keep about a workspace, per tenant. Keys compare as code points ("C" collation), as in
-- SQLite, so that both stores list and page keys in one order whatever the database's locale.

-- English stemming ("retries" finds "retry") without the english configuration's stop words: SQLite's
-- porter tokenizer drops none, and a note that says "do not restart" must be found by "not".
CREATE TEXT SEARCH DICTIONARY meshlens_english_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION meshlens_notes (COPY = english);
ALTER TEXT SEARCH CONFIGURATION meshlens_notes
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
  WITH meshlens_english_stem;

CREATE TABLE notes (
  tenant TEXT NOT NULL,
  workspace TEXT NOT NULL,
  key TEXT COLLATE "C" NOT NULL,
  value TEXT NOT NULL,
  -- Sorted, lower-case, without repeats.
  tags TEXT[] NOT NULL DEFAULT '{}',
  author TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  pin_kind TEXT,
  pin_path TEXT,
  pin_name TEXT,
  pin_symbol_kind TEXT,
  pin_hash TEXT,
  -- Key (weight A), tags (B) and value (D), written with the row by the store, which splits the text into
  -- words first: PostgreSQL's parser would read "deploy/payment-worker" as one file name.
  search TSVECTOR NOT NULL,
  PRIMARY KEY (tenant, workspace, key)
);
CREATE INDEX notes_search ON notes USING GIN (search);
CREATE INDEX notes_pinned ON notes (tenant, workspace, key) WHERE pin_kind IS NOT NULL;

-- Down Migration
DROP TABLE notes;
DROP TEXT SEARCH CONFIGURATION meshlens_notes;
DROP TEXT SEARCH DICTIONARY meshlens_english_stem;
