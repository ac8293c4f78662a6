-- Up Migration
-- Every table of the team store carries the tenant it belongs to; this one lists the tenants seen, so an
-- operator can tell which tenants hold data.
CREATE TABLE tenants (
  name TEXT PRIMARY KEY,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE tenants;
