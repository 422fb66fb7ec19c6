package io.polyrag.store.opensearch;

/**
 * Starts the test node and keeps it running, for measuring by hand (docs/evaluation.md):
 * {@code ./mvnw -pl stores/opensearch exec:java -Dexec.mainClass=io.polyrag.store.opensearch.OpenSearchNode
 * -Dexec.classpathScope=test}; prints its URL, stops on Ctrl-C.
 */
public final class OpenSearchNode {
    private OpenSearchNode() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("OpenSearch at " + TestOpenSearch.url());
        Thread.currentThread().join();
    }
}
