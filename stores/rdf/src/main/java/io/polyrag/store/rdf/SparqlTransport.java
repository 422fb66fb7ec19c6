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
     * Adds {@code triples} (Turtle statements over {@link RdfEncoding#PREFIXES}) to the named graph {@code graphIri},
     * then runs {@code then} (update operations without the prefixes, possibly empty), as one atomic unit. The plain
     * form is one {@code INSERT DATA} request; an embedded store may add the triples without the SPARQL parser.
     */
    default void insert(String graphIri, String triples, String then) {
        update(RdfEncoding.PREFIXES + "INSERT DATA { GRAPH <" + graphIri + "> {\n" + triples + "} }"
                + (then.isEmpty() ? "" : " ;\n" + then));
    }

    /** Where it runs, for messages. */
    String describe();

    @Override
    void close();
}
