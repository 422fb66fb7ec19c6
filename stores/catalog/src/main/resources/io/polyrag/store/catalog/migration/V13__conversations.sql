-- Conversations a tenant keeps on the server (POST /v1/query with conversation_id): the messages as JSON, so a
-- follow-up can lean on them. Old ones go after POLYRAG_CONVERSATIONS_RETENTION_DAYS.
CREATE TABLE IF NOT EXISTS conversations (
    tenant     VARCHAR(40)  NOT NULL,
    id         VARCHAR(64)  NOT NULL,
    title      VARCHAR(200) NOT NULL,
    messages   TEXT         NOT NULL,
    turns      INT          NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX IF NOT EXISTS conversations_updated ON conversations (tenant, updated_at);
