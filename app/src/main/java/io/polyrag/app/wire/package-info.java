/**
 * The published JSON forms of what the facade answers: the REST API's response bodies and the CLI's {@code --json}
 * output, snake_case, each record mapped explicitly from the core type it shows. Renaming or reshaping a core record
 * therefore never changes what clients read; changing a record here does, and is an API change. They live beside
 * the facade, not in a front door, because several front doors print them and front doors never import each other.
 */
package io.polyrag.app.wire;
