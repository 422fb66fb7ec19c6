package io.polyrag.ingest;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Where an ingest's steps are seen in a trace: each file's parse and chunking, each batch's embedding, extraction,
 * staging, each store's write and the publish, as spans of the trace current on the ingesting thread (a job's),
 * which the embedding and writing threads carry on. Nothing is traced outside a trace.
 */
public interface IngestSpans {
    IngestSpans NONE = new IngestSpans() {
    };

    /** Runs {@code body} as a span named {@code name} with {@code attributes}; by default just runs it. */
    default <T> T span(String name, Map<String, Object> attributes, Supplier<T> body) {
        return body.get();
    }

    /** The executor a stage runs on, carrying the submitting thread's trace into its tasks. */
    default ExecutorService carrying(ExecutorService stage) {
        return stage;
    }
}
