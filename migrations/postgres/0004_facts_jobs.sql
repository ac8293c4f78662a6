-- Up Migration
-- Facts of files, shared by the replicas that index one workspace. The key is the local fact cache's (a hash
-- of extraction version, root, path, content and the settings extraction reads), the value its encoding, so
-- a replica copies rows into its own cache without decoding them. `tenant` '*' is the workspace a server
-- was started on, served to every tenant.
CREATE TABLE shared_facts (
  tenant TEXT NOT NULL,
  workspace TEXT NOT NULL,
  key BYTEA NOT NULL,
  kind SMALLINT NOT NULL,
  enc SMALLINT NOT NULL,
  value BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, workspace, key)
);

-- One row per workspace. A replica builds the workspace's index while it holds this row locked
-- (SELECT ... FOR UPDATE SKIP LOCKED, in a transaction kept open for the whole run): a replica that dies
-- loses its connection and with it the lock. `snapshot_run` is the last run that finished.
CREATE TABLE index_jobs (
  tenant TEXT NOT NULL,
  workspace TEXT NOT NULL,
  snapshot_run BIGINT,
  PRIMARY KEY (tenant, workspace)
);

-- Each run a replica made while holding a job: written outside the lock's transaction, so that other
-- replicas see who is indexing and how far it got. A finished run is the job's snapshot: what it read
-- (inputs_fingerprint, a hash of every fact key), how many files, and who built it.
CREATE TABLE index_runs (
  id BIGSERIAL PRIMARY KEY,
  tenant TEXT NOT NULL,
  workspace TEXT NOT NULL,
  replica TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'abandoned', 'failed')),
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ,
  progress_done INTEGER NOT NULL DEFAULT 0,
  progress_total INTEGER NOT NULL DEFAULT 0,
  inputs_fingerprint TEXT,
  files INTEGER,
  parsed INTEGER,
  pulled INTEGER,
  uploaded INTEGER,
  failure TEXT
);
CREATE INDEX index_runs_by_workspace ON index_runs (tenant, workspace, id);

-- Down Migration
DROP TABLE index_runs;
DROP TABLE index_jobs;
DROP TABLE shared_facts;
