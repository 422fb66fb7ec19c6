package io.polyrag.store.opensearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * One real OpenSearch node for this test JVM (about 8 s to start, so it is shared), in a temporary folder, its HTTP
 * port picked free above 9200; stopped when the JVM exits. Shared with other modules' tests as this module's test jar.
 */
public final class TestOpenSearch {
    private static String url;
    private static OpenSearchRunner runner;

    private TestOpenSearch() {
    }

    public static synchronized String url() {
        if (url == null) {
            try {
                Path home = Files.createTempDirectory("polyrag-opensearch");
                runner = new OpenSearchRunner() {
                    {
                        maxHttpPort = 9800;
                    }
                };
                runner.onBuild((n, settings) -> {
                    settings.put("network.host", "127.0.0.1");
                    settings.put("http.cors.enabled", false);
                });
                runner.build(OpenSearchRunner.newConfigs().clusterName("polyrag-test").numOfNode(1)
                        .baseHttpPort(9200 + (int) (ProcessHandle.current().pid() % 300)).basePath(home.toString())
                        .disableESLogger());
                runner.ensureYellow();
                String address = runner.node().settings().get("http.port");
                url = "http://127.0.0.1:" + address;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        runner.close();
                        runner.clean();
                    } catch (IOException e) {
                        // exiting anyway
                    }
                }));
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the test OpenSearch node: " + e.getMessage(), e);
            }
        }
        return url;
    }

    /**
     * Stops the node for real (its HTTP port closed, the process's node shut down as on a service stop), runs
     * {@code whileDown}, then starts it again on the same port and data and waits until it serves.
     */
    public static synchronized void stopped(Runnable whileDown) throws IOException, InterruptedException {
        url();
        org.opensearch.node.Node node = runner.getNode(0);
        node.close();
        if (!node.awaitClose(30, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test OpenSearch node did not stop within 30 s");
        }
        Throwable failed = null;
        try {
            whileDown.run();
        } catch (RuntimeException | Error e) {
            failed = e;
        }
        // Started again whatever happened meanwhile (the node is shared by the JVM's other tests); a failure to
        // start does not hide the test's own.
        try {
            if (!runner.startNode(0)) {
                throw new IllegalStateException("the test OpenSearch node did not start again");
            }
            runner.ensureYellow();
        } catch (RuntimeException e) {
            if (failed == null) {
                throw e;
            }
            failed.addSuppressed(e);
        }
        if (failed instanceof RuntimeException r) {
            throw r;
        }
        if (failed != null) {
            throw (Error) failed;
        }
    }
}
