-- Up Migration

-- API keys, as in the SQLite key store: a key's text is never stored, only its prefix and its keyed hash.
-- Each key carries the tenant it acts for.
CREATE TABLE api_keys (
  id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  prefix TEXT NOT NULL UNIQUE,
  hash TEXT NOT NULL,
  tenant TEXT NOT NULL,
  role TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  rate TEXT,
  daily INTEGER,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ,
  last_used_at TIMESTAMPTZ
);

-- The secret the key hashes are keyed with, one for every replica: a single row, written once by whoever
-- comes first. `secret` is null when the replicas take it from MESHLENS_KEYS_SECRET instead; `fingerprint`
-- tells a replica whose secret differs from the one the keys were made with.
CREATE TABLE key_secret (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  secret TEXT,
  fingerprint TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Calls and refusals per caller (`key:<id>` or `local`) per UTC day. A key's row implies its tenant.
CREATE TABLE key_usage (
  subject TEXT NOT NULL,
  day DATE NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  refusals INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subject, day)
);

-- One hash chain per tenant (the empty tenant is a server's own chain when it serves no tenants). Rows hash
-- the same fields as the SQLite chain; `append_id` lets a writer whose commit went unanswered tell whether
-- it happened, so a retry never writes a record twice.
CREATE TABLE audit_log (
  tenant TEXT NOT NULL,
  id BIGINT NOT NULL,
  time TEXT NOT NULL,
  session TEXT NOT NULL,
  operation TEXT NOT NULL,
  argument_digest TEXT NOT NULL,
  status TEXT NOT NULL,
  elapsed_ms DOUBLE PRECISION NOT NULL,
  files_read TEXT NOT NULL,
  redactions INTEGER NOT NULL,
  trace_id TEXT,
  warning TEXT,
  caller TEXT,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  chain_version INTEGER NOT NULL,
  append_id UUID NOT NULL,
  PRIMARY KEY (tenant, id),
  CONSTRAINT audit_log_append_once UNIQUE (tenant, append_id)
);
CREATE INDEX audit_log_time ON audit_log (tenant, time);

-- Each chain's last row; an append locks it, so replicas append to one chain in turn.
CREATE TABLE audit_head (
  tenant TEXT PRIMARY KEY,
  last_id BIGINT NOT NULL,
  last_hash TEXT NOT NULL
);

-- Down Migration
DROP TABLE audit_head;
DROP TABLE audit_log;
DROP TABLE key_usage;
DROP TABLE key_secret;
DROP TABLE api_keys;
