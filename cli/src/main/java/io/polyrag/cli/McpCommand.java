package io.polyrag.cli;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.core.ConfigException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code polyrag mcp}: polyrag's tools for agents. Each tool is one request to a polyrag REST API: the one at
 * {@code --backend-url}, or, without it, one this command serves itself from the data directory on a free loopback
 * port, so a desktop client needs nothing else running.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, description = {"Serve polyrag's tools to MCP clients "
        + "(Claude Desktop, IDEs, agents): search, answer, ingest, status.",
    "With stdio (the default) standard output carries only the protocol; logs go to standard error, and the command "
        + "ends when standard input closes."})
final class McpCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--transport", paramLabel = "KIND", description = "stdio, streamable-http or sse "
            + "(POLYRAG_MCP_TRANSPORT; default stdio).")
    String transport;

    @Option(names = "--backend-url", paramLabel = "URL", description = "A running polyrag REST API "
            + "(POLYRAG_MCP_BACKEND_URL); default: serve one from the data directory for this command only.")
    String backendUrl;

    @Option(names = "--api-key", paramLabel = "KEY", description = "API key for the REST API (POLYRAG_MCP_API_KEY).")
    String apiKey;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Bind address of the networked transports "
            + "(POLYRAG_MCP_HOST; default 127.0.0.1).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", description = "Port of the networked transports "
            + "(POLYRAG_MCP_PORT; default 8090; 0 picks a free one).")
    Integer port;

    // style: a command: its options checked and its output written, top to bottom as the user reads them
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> flags = new LinkedHashMap<>();
        put(flags, Settings.MCP_TRANSPORT.key(), transport);
        put(flags, Settings.MCP_BACKEND_URL.key(), backendUrl);
        put(flags, Settings.MCP_API_KEY.key(), apiKey);
        put(flags, Settings.MCP_HOST.key(), host);
        put(flags, Settings.MCP_PORT.key(), port == null ? null : port.toString());
        Config config = parent.config(flags);
        String kind = config.get(Settings.MCP_TRANSPORT);
        boolean stdio = kind.equals("stdio");
        // The protocol owns standard output: anything else that prints goes to standard error.
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        PrintStream realOut = System.out;
        if (stdio) {
            System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true,
                    StandardCharsets.UTF_8));
        }
        String url = config.get(Settings.MCP_BACKEND_URL);
        Polyrag polyrag = null;
        HttpFrontDoor rest = null;
        URI backend;
        try {
            if (url == null || url.isBlank()) {
                try {
                    polyrag = Polyrag.open(config);
                } catch (UnavailableException e) {
                    throw new UnavailableException(e.getMessage() + "; if a polyrag server runs on "
                            + "it, point the MCP tools at it: polyrag mcp --backend-url " + ServedUrl.read(
                                    config.get(Settings.DATA_DIR), config.get(Settings.HTTP_HOST),
                                    config.get(Settings.HTTP_PORT)), e);
                }
                rest = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, config.get(Settings.HTTP_MAX_REQUEST_MB)
                        * 1024L * 1024L);
                backend = URI.create("http://127.0.0.1:" + rest.port());
            } else {
                backend = backendUri(url.strip());
            }
            McpFrontDoor mcp = McpFrontDoor.start(new McpFrontDoor.Options(kind, backend,
                    config.get(Settings.MCP_API_KEY), config.get(Settings.MCP_HOST), config.get(Settings.MCP_PORT),
                    System.in, protocol, config));
            Polyrag p = polyrag;
            HttpFrontDoor r = rest;
            // Once, whichever starts it (the end of the input, a signal, the exit's hook), the others waiting for it.
            AtomicBoolean closing = new AtomicBoolean();
            CountDownLatch closed = new CountDownLatch(1);
            Runnable stop = () -> {
                if (closing.compareAndSet(false, true)) {
                    try {
                        close(mcp, r, p);
                    } finally {
                        closed.countDown();
                    }
                } else {
                    try {
                        closed.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            Thread hook = new Thread(stop, "polyrag-mcp-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            StopSignals.install(stop);
            if (!stdio) {
                String host = config.get(Settings.MCP_HOST);
                String where = "http://" + (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host)
                        + ":" + mcp.port()
                        + (kind.equals("sse") ? "/sse" : "/mcp");
                err.println("polyrag MCP (" + kind + ") at " + where + "; tools call the REST API at " + backend
                        + (config.get(Settings.MCP_JWT_JWKS_URL).isBlank() ? "" : "; bearer JWTs required"));
                err.flush();
            }
            mcp.await();
            stop.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
            return 0;
        } catch (RuntimeException e) {
            close(null, rest, polyrag);
            throw e;
        } finally {
            if (stdio) {
                System.setOut(realOut);
            }
        }
    }

    private static URI backendUri(String url) {
        try {
            URI u = new URI(url);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new URISyntaxException(url, "not an http(s) URL with a host");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new ConfigException("--backend-url / POLYRAG_MCP_BACKEND_URL must be an http(s) URL "
                    + "such as http://127.0.0.1:8080, was '" + url + "'");
        }
    }

    private static void close(McpFrontDoor mcp, HttpFrontDoor rest, Polyrag polyrag) {
        if (polyrag != null) {
            polyrag.beginStop(); // the jobs wind down while the front doors drain
        }
        if (mcp != null) {
            mcp.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (polyrag != null) {
            polyrag.close();
        }
    }

    private static void put(Map<String, String> flags, String key, String value) {
        if (value != null) {
            flags.put(key, value);
        }
    }
}
