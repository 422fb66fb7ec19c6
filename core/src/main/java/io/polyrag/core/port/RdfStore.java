package io.polyrag.core.port;

import io.polyrag.core.model.Relation;
import java.util.Collection;
import java.util.List;

/**
 * Relations as RDF: each one a reified {@code rdf:Statement} carrying its chunk, document, version and properties,
 * entity names as {@code rdfs:label}, queried with SPARQL. User text is never concatenated into a query unescaped.
 */
public interface RdfStore extends EntityGraph {

    /**
     * Ids of entities whose label (its normalised form, {@code pr:key}, or an alias) contains any of {@code terms}
     * (normalised) as a whole word, those holding the most terms first (then by id), at most {@code limit}.
     */
    default List<String> entityIdsByLabel(Collection<String> terms, int limit) {
        return entityIdsByLabel(terms, null, limit);
    }

    /**
     * {@link #entityIdsByLabel(Collection, int)} among one namespace's entities, chosen before the limit applies
     * (another tenant's many matching labels must not take the places): {@code ""} the local tenant's (keys
     * without a slash), {@code "acme/"} a tenant's; null every entity.
     */
    List<String> entityIdsByLabel(Collection<String> terms, String namespace, int limit);

    /** Every relation stored for {@code documentId}, decoded from its statements, in a stable order. */
    List<Relation> relations(String documentId);

    /** Triples stored, for status and tests. */
    long triples();
}
