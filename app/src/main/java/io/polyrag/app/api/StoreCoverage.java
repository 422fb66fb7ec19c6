package io.polyrag.app.api;

/**
 * What one store holds of a document's visible version, read live from the store, beside what the catalog says it
 * should hold.
 *
 * @param expected records the visible version calls for (chunks in a chunk index, chunks with entities or relations
 *     in the graph and RDF stores); -1 when the catalog does not know (a version written before it counted them),
 *     -2 when nothing was extracted (indexed while no graph or RDF store was enabled: {@code polyrag reindex})
 * @param held records the store holds of that version now; -1 when the store cannot be read
 * @param state {@code complete} (held = expected), {@code incomplete}, {@code unreadable} (held unknown) or
 *     {@code unchecked} (nothing to compare with)
 */
public record StoreCoverage(long expected, long held, String state) {

    public static StoreCoverage of(long expected, long held) {
        String state = held < 0 ? "unreadable" : expected < 0 ? "unchecked"
                : held == expected ? "complete" : "incomplete";
        return new StoreCoverage(expected, held, state);
    }
}
