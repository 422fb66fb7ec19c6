package io.polyrag.core.port;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import java.util.Collection;
import java.util.List;

/**
 * Relations as RDF: each one a reified {@code rdf:Statement} carrying its chunk, document and properties, entity
 * labels as {@code rdfs:label}, queried with SPARQL. User text is never concatenated into a query unescaped.
 * Safe for concurrent use.
 */
public interface RdfStore extends AutoCloseable {

    /** Adds the statements for these relations durably. */
    void upsert(List<Relation> relations);

    /** Removes the statements of these document versions. */
    void delete(Collection<DocumentVersion> versions);

    /** Chunks whose statements have subjects or objects labelled with any of {@code terms}, best first. */
    List<StoreHit> search(Collection<String> terms, SearchScope scope, int limit);

    @Override
    void close();
}
