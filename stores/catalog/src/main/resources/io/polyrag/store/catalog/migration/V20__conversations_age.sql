-- Conversations past their retention are found by age alone, every sweep: the only index led with the tenant, so
-- each sweep of each replica read every conversation.
CREATE INDEX IF NOT EXISTS conversations_age ON conversations (updated_at);
