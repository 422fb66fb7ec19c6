-- The tenant that took over local mode's data (polyrag keys create TENANT --adopt-local): its keys act as the local
-- tenant, so what was indexed before the first key stays reachable without rewriting any store. At most one row.
CREATE TABLE IF NOT EXISTS local_owner (
    only_row   INT         NOT NULL PRIMARY KEY CHECK (only_row = 1),
    tenant     VARCHAR(40) NOT NULL,
    adopted_at TIMESTAMP WITH TIME ZONE NOT NULL
);
