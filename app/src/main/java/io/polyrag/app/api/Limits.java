package io.polyrag.app.api;

/**
 * The facade's request limits and default page sizes, in one place, for every front door: the facade enforces the
 * limits; a front door uses the defaults when a request leaves a size out. (Limits that operators tune are settings
 * instead: query length, top-k, request size, file size.)
 */
public final class Limits {
    /** Longest document uri accepted. */
    public static final int MAX_URI = 2048;
    /**
     * Most files one upload request may carry (the REST routes, the MCP tool, the web UI); send more in several
     * requests. The HTTP server takes a few form fields more than this many parts.
     */
    public static final int MAX_FILES_PER_REQUEST = 1000;
    /** Most form fields, files included, one multipart request may hold. */
    public static final int MAX_FORM_PARTS = MAX_FILES_PER_REQUEST + 24;
    /** Most staged files one ingest may name. */
    public static final int MAX_STAGED_IDS = 10_000;
    /** Largest page of documents, entities or neighbours. */
    public static final int MAX_PAGE = 1000;
    /** Documents listed when a request does not say. */
    public static final int DEFAULT_DOCUMENTS_PAGE = 50;
    /** Entities found when a request does not say. */
    public static final int DEFAULT_ENTITIES = 20;
    /** Relations listed around an entity when a request does not say. */
    public static final int DEFAULT_NEIGHBOURS = 50;
    /** Most knowledge bases one search may name. */
    public static final int MAX_KNOWLEDGE_BASES = 256;
    /** Longest title a client may give. */
    public static final int MAX_TITLE = 1024;
    /** Longest entity-name search text. */
    public static final int MAX_ENTITY_QUERY = 200;

    private Limits() {
    }
}
