package io.polyrag.store.rdf;

import java.util.List;
import java.util.Map;

/**
 * Where SPARQL runs: a local TDB2 dataset or a remote endpoint. The encoding above it is the same, so a graph written
 * through one reads back identically through the other.
 */
interface SparqlTransport extends AutoCloseable {

    /** Runs a SELECT; each row maps variable → lexical form (IRIs as their string, literals as their lexical form). */
    List<Map<String, String>> select(String query);

    /** Runs an update request (operations separated by {@code ;}) as one atomic unit. */
    void update(String request);

    /**
     * An entity {@link #insert} adds to the graph unless one with its key is there: the first name and type an entity
     * was given stay, and a later document only fills in a missing (empty) type.
     */
    record NewEntity(String key, String name, String type) {
    }

    /**
     * Adds {@code triples} to the named graph {@code graphIri}, then each of {@code entities} as {@link NewEntity}
     * says, as one atomic unit. The plain form is one update request: {@code INSERT DATA} with the triples as
     * N-Triples, then two conditional operations per entity; an embedded store may do the same without the SPARQL
     * parser.
     */
    default void insert(String graphIri, Triples triples, List<NewEntity> entities) {
        update(RdfEncoding.PREFIXES + "INSERT DATA { GRAPH <" + graphIri + "> {\n" + triples.nTriples() + "} }"
                + entityUpdates(RdfEncoding.graph(graphIri), entities));
    }

    /** {@link NewEntity}'s rule as update operations, each after a {@code " ;\n"}. */
    static String entityUpdates(String graph, List<NewEntity> entities) {
        StringBuilder then = new StringBuilder();
        for (NewEntity e : entities) {
            String iri = RdfEncoding.entity(e.key());
            then.append(" ;\nINSERT { GRAPH ").append(graph).append(" { ").append(iri).append(" rdfs:label ")
                    .append(RdfEncoding.literal(e.name())).append(" ; pr:key ").append(RdfEncoding.literal(e.key()))
                    .append(" ; pr:type ").append(RdfEncoding.literal(e.type())).append(" } } WHERE { FILTER NOT "
                    + "EXISTS { GRAPH ").append(graph).append(" { ").append(iri).append(" pr:key ?k } } }");
            if (!e.type().isEmpty()) {
                then.append(" ;\nDELETE { GRAPH ").append(graph).append(" { ").append(iri).append(" pr:type \"\" } } "
                        + "INSERT { GRAPH ").append(graph).append(" { ").append(iri).append(" pr:type ")
                        .append(RdfEncoding.literal(e.type())).append(" } } WHERE { GRAPH ").append(graph)
                        .append(" { ").append(iri).append(" pr:type \"\" } }");
            }
        }
        return then.toString();
    }

    /** Where it runs, for messages. */
    String describe();

    @Override
    void close();
}
