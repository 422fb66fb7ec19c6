package io.polyrag.app.api;

import java.util.Map;

/**
 * What registers a source.
 *
 * @param id the caller's id for it: 1-64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit
 * @param type the connector: {@code filesystem}, {@code web} or {@code s3} (any type a source connector on the class
 *     path serves)
 * @param config the connector's settings — {@code filesystem}: {@code root} (an absolute folder), {@code include}
 *     and {@code exclude} (lists of globs on the path below the root), {@code follow_symlinks} (false); {@code web}:
 *     {@code start_urls}, {@code path_prefix}, {@code max_pages}, {@code max_depth}; {@code s3}: {@code bucket},
 *     {@code prefix}, {@code endpoint}, {@code region}, {@code path_style}, {@code access_key_id},
 *     {@code secret_access_key} (never shown back), {@code include}, {@code exclude}; each takes {@code skip_graph}
 *     (false: index without extracting entities and relations)
 * @param knowledgeBase where its items are indexed; null for the default
 * @param intervalSeconds how often it is scanned, at least 30; null for 300
 * @param enabled whether it is scanned and watched; null for true. Its first sync runs either way, so a source
 *     registered disabled is indexed once and kept in step only once enabled
 */
public record SourceRegistration(String id, String type, Map<String, Object> config, String knowledgeBase,
        Integer intervalSeconds, Boolean enabled) {
}
