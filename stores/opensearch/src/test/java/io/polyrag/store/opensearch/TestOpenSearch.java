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
    public static synchronized void stopped(Runnable whileDown) throws IOException {
        url();
        runner.getNode(0).close();
        try {
            whileDown.run();
        } finally {
            runner.startNode(0);
            runner.ensureYellow();
        }
    }
}
