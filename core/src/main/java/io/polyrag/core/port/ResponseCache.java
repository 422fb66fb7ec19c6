package io.polyrag.core.port;

import java.util.Optional;

/**
 * Language-model responses already paid for, keyed by a hash of (model, prompt, input), so that re-ingesting
 * unchanged text costs nothing. A cache may forget entries at any time. Safe for concurrent use.
 */
public interface ResponseCache {

    /** The cached response for {@code key} (a hex SHA-256), if any. */
    Optional<String> response(String key);

    /** Remembers a response; an existing entry is kept. */
    void rememberResponse(String key, String response);
}
