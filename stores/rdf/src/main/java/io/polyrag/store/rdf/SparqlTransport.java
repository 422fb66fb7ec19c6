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

    /** Where it runs, for messages. */
    String describe();

    @Override
    void close();
}
