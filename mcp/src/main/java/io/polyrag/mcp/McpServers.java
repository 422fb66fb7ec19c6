package io.polyrag.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.app.Tracing;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Starts polyrag's MCP server on the official SDK: the {@link Tools} over stdio, streamable HTTP ({@code /mcp}) or
 * SSE ({@code /sse} and {@code /mcp/message}). The networked transports run in Jetty with the SDK's Origin and Host
 * validator switched on (it is off by default) and, when a JWKS URL is set, {@link BearerJwt} in front.
 */
public final class McpServers implements McpFrontDoor.Factory {
    static final String INSTRUCTIONS = "polyrag is a knowledge base over the user's documents. Use hybrid_search to "
            + "find passages (cite their title and location), answer_question for a cited answer, "
            + "list_knowledge_bases to see what can be searched, ingest_raw_text or start_document_ingest to add "
            + "documents (then check_ingest_status), delete_document to remove one. Every tool answers one JSON "
            + "object: ok, tool, status, data, error.";
    private static final Logger LOG = LoggerFactory.getLogger(McpServers.class);

    @Override
    public McpFrontDoor start(McpFrontDoor.Options o) {
        Config config = o.config();
        Duration timeout = Duration.ofSeconds(config.get(Settings.MCP_REQUEST_TIMEOUT_SECONDS));
        if (!o.transport().equals("stdio")) {
            checkBind(o);
        }
        // The same limit as the REST API's: a thin adapter in front of a server configured otherwise still gets that
        // server's own 400, which it passes on.
        Tracing tracing = Tracing.of(config);
        Tools tools = new Tools(new Backend(o.backend(), o.apiKey(), timeout, tracing), hostFiles(o),
                config.get(Settings.SEARCH_MAX_TOP_K));
        McpJsonMapper mapper = new JacksonMcpJsonMapper(JsonMapper.builder().build());
        List<McpServerFeatures.SyncToolSpecification> specs = specs(tools, mapper, tracing);
        McpSchema.ServerCapabilities capabilities = McpSchema.ServerCapabilities.builder().tools(false).build();
        String version = McpServers.class.getPackage().getImplementationVersion();
        version = version == null ? "dev" : version;
        return switch (o.transport()) {
            case "stdio" -> {
                StdioGate gate = new StdioGate(timeout.plusSeconds(10));
                McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(mapper, gate.input(o.in()),
                        gate.output(o.out()))).serverInfo("polyrag", version).instructions(INSTRUCTIONS)
                        .capabilities(capabilities).jsonMapper(mapper).validateToolInputs(false).tools(specs)
                        .build();
                yield new Running(null, server, gate, tracing);
            }
            case "streamable-http" -> {
                HttpServletStreamableServerTransportProvider provider = HttpServletStreamableServerTransportProvider
                        .builder().jsonMapper(mapper).mcpEndpoint("/mcp").securityValidator(validator(o))
                        .keepAliveInterval(Duration.ofSeconds(15)).build();
                McpSyncServer server = McpServer.sync(provider).serverInfo("polyrag", version)
                        .instructions(INSTRUCTIONS).capabilities(capabilities).jsonMapper(mapper)
                        .validateToolInputs(false).tools(specs).build();
                yield new Running(jetty(o, provider, "/mcp/*"), server, null, tracing);
            }
            case "sse" -> {
                HttpServletSseServerTransportProvider provider = HttpServletSseServerTransportProvider.builder()
                        .jsonMapper(mapper).sseEndpoint("/sse").messageEndpoint("/mcp/message")
                        .securityValidator(validator(o)).keepAliveInterval(Duration.ofSeconds(15)).build();
                McpSyncServer server = McpServer.sync(provider).serverInfo("polyrag", version)
                        .instructions(INSTRUCTIONS).capabilities(capabilities).jsonMapper(mapper)
                        .validateToolInputs(false).tools(specs).build();
                yield new Running(jetty(o, provider, "/*"), server, null, tracing);
            }
            default -> throw new ConfigException("--transport must be stdio, sse or streamable-http, was '"
                    + o.transport() + "'");
        };
    }

    /**
     * Without authentication anyone who reaches the port acts with the adapter's API key: like the REST server
     * without keys, the networked transports then bind only a loopback address.
     */
    static void checkBind(McpFrontDoor.Options o) {
        String jwks = o.config().get(Settings.MCP_JWT_JWKS_URL);
        // An issuer or audience with no key set to check tokens against asked for no token at all, silently.
        if ((jwks == null || jwks.isBlank()) && (!o.config().get(Settings.MCP_JWT_ISSUER).isBlank()
                || !o.config().get(Settings.MCP_JWT_AUDIENCE).isBlank())) {
            throw new ConfigException(Settings.MCP_JWT_ISSUER.env() + " or " + Settings.MCP_JWT_AUDIENCE.env()
                    + " is set but " + Settings.MCP_JWT_JWKS_URL.env() + " is not: tokens are checked only against "
                    + "the keys it names, so without it none would be asked for. Set it, or unset the other two");
        }
        if ((jwks == null || jwks.isBlank()) && !loopback(o.host())) {
            throw new ConfigException("refusing to serve MCP on " + o.host() + " without authentication: anyone who "
                    + "can reach it would act with this adapter's API key. Set " + Settings.MCP_JWT_JWKS_URL.env()
                    + " (and " + Settings.MCP_JWT_ISSUER.env() + ", " + Settings.MCP_JWT_AUDIENCE.env() + ") so "
                    + "clients must send a signed token, or bind a loopback address (--host 127.0.0.1)");
        }
        // Bound to every address, the Host check knows no name of this machine but the loopback ones: every remote
        // call was a 421. Said at start, not at the first client's call.
        if ((o.host().equals("0.0.0.0") || o.host().equals("::"))
                && o.config().get(Settings.MCP_ALLOWED_HOSTS).isBlank()) {
            throw new ConfigException("serving MCP on " + o.host() + " needs the names clients reach it by: set "
                    + Settings.MCP_ALLOWED_HOSTS.env() + " (e.g. mcp.example.org,mcp.example.org:*), or bind one "
                    + "address (--host) that clients use; other Host headers get 421 (against DNS rebinding)");
        }
    }

    private static boolean loopback(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * What start_document_ingest may read on this host. Over stdio the client is the user's own program: any file
     * the user can read (but the data directory), unless {@code mcp.allowed.roots} narrows it. Over the network: only the allowed roots, and
     * with none, nothing. Never the data directory.
     */
    static Tools.HostFiles hostFiles(McpFrontDoor.Options o) {
        List<Path> roots = split(o.config().get(Settings.MCP_ALLOWED_ROOTS)).stream()
                .map(Path::of).toList();
        // The data directory and a blob folder of its own (every tenant's stored originals), as for sync sources —
        // when this adapter serves one. As a client of a server elsewhere (--backend-url) it has none: "data",
        // the default, was the user's own ./data folder, refused. Any real data directory is refused all the same
        // (FolderWalk.insideDataDirectory: its lock file beside its stores).
        List<Path> forbidden = new ArrayList<>();
        String backendUrl = o.config().get(Settings.MCP_BACKEND_URL);
        if (backendUrl == null || backendUrl.isBlank()) {
            forbidden.add(o.config().get(Settings.DATA_DIR).toAbsolutePath().normalize());
        }
        // A blob folder named is never read, client or not: it holds no lock file that would mark it (a shared one,
        // named in an environment file every process reads, holds every tenant's originals).
        String blobs = o.config().get(Settings.BLOB_DIR);
        if (blobs != null && !blobs.isBlank()) {
            forbidden.add(Path.of(blobs.strip()).toAbsolutePath().normalize());
        }
        if (!roots.isEmpty()) {
            return new Tools.HostFiles(Confinement.of(roots, forbidden), null);
        }
        if (o.transport().equals("stdio")) {
            List<Path> everything = new ArrayList<>();
            FileSystems.getDefault().getRootDirectories().forEach(everything::add);
            return new Tools.HostFiles(Confinement.of(everything, forbidden), null);
        }
        return new Tools.HostFiles(Confinement.NONE, "this MCP server is reached over the "
                + "network, so it reads no files on its own host unless its operator names folders in "
                + Settings.MCP_ALLOWED_ROOTS.env() + ": send the files to the REST API instead (POST /v1/ingest/files), "
                + "or ingest_raw_text for text");
    }

    static List<McpServerFeatures.SyncToolSpecification> specs(Tools tools, McpJsonMapper mapper) {
        return specs(tools, mapper, Tracing.off());
    }

    /**
     * Each tool as the SDK wants it: the envelope both as structured content and as its JSON text. Each call is a
     * span continuing the context the client sent in its request's {@code _meta}, and the REST request it makes
     * carries it on.
     */
    static List<McpServerFeatures.SyncToolSpecification> specs(Tools tools, McpJsonMapper mapper, Tracing tracing) {
        List<McpServerFeatures.SyncToolSpecification> out = new ArrayList<>();
        for (Tools.Tool t : tools.all()) {
            McpSchema.Tool tool = McpSchema.Tool.builder().name(t.name()).description(t.description())
                    .inputSchema(mapper, t.inputSchema()).build();
            out.add(McpServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
                Tracing.Request traced = tracing.tool(t.name(), request.meta());
                Map<String, Object> envelope;
                try (var entered = traced.enter()) {
                    envelope = call(t, request.arguments());
                }
                traced.end(!Boolean.TRUE.equals(envelope.get("ok")));
                String text;
                try {
                    text = mapper.writeValueAsString(envelope);
                } catch (IOException e) {
                    text = String.valueOf(envelope);
                }
                return McpSchema.CallToolResult.builder().structuredContent(envelope).addTextContent(text)
                        .isError(!Boolean.TRUE.equals(envelope.get("ok"))).build();
            }).build());
        }
        return out;
    }

    static Map<String, Object> call(Tools.Tool t, Map<String, Object> arguments) {
        try {
            return t.handler().call(new Args(arguments));
        } catch (Args.Bad e) {
            return Tools.envelope(t.name(), false, null, null, e.getMessage(), e.field());
        } catch (Backend.Unreachable e) {
            return Tools.envelope(t.name(), false, null, null, e.getMessage(), null);
        } catch (RuntimeException e) {
            LOG.error("tool {} failed", t.name(), e);
            return Tools.envelope(t.name(), false, null, null, "internal error in the MCP adapter ("
                    + e.getClass().getSimpleName() + "); its log has the details", null);
        }
    }

    /** The largest request body the networked transports read. */
    static final long MAX_BODY_BYTES = StdioGate.MAX_LINE_BYTES;

    /** Origins from the settings; Host headers: loopback names, the bound address, and the settings' extra ones. */
    private static DefaultServerTransportSecurityValidator validator(McpFrontDoor.Options o) {
        List<String> hosts = new ArrayList<>(List.of("localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*",
                "[::1]", "[::1]:*"));
        if (!o.host().equals("0.0.0.0") && !o.host().equals("::")) {
            // An IPv6 address arrives in the Host header in brackets ([fd00::5]:8090): bare, it matched nothing
            // and every request was refused 421.
            String host = o.host().contains(":") && !o.host().startsWith("[") ? "[" + o.host() + "]" : o.host();
            hosts.add(host);
            hosts.add(host + ":*");
        }
        hosts.addAll(split(o.config().get(Settings.MCP_ALLOWED_HOSTS)));
        return DefaultServerTransportSecurityValidator.builder()
                .allowedOrigins(split(o.config().get(Settings.MCP_ALLOWED_ORIGINS))).allowedHosts(hosts).build();
    }

    private static List<String> split(String s) {
        return s == null ? List.of() : Arrays.stream(s.split(",")).map(String::strip).filter(x -> !x.isEmpty())
                .toList();
    }

    private static Server jetty(McpFrontDoor.Options o, HttpServlet servlet, String mapping) {
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(o.host());
        connector.setPort(o.port());
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, mapping);
        String jwks = o.config().get(Settings.MCP_JWT_JWKS_URL);
        if (jwks != null && !jwks.isBlank()) {
            FilterHolder filter = new FilterHolder(new BearerJwt(jwks.strip(), o.config().get(Settings.MCP_JWT_ISSUER),
                    o.config().get(Settings.MCP_JWT_AUDIENCE)));
            filter.setAsyncSupported(true);
            context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        // A body is read whole by the SDK before it is parsed: one POST of gigabytes ran the adapter (and, in one
        // process with it, polyrag) out of memory. The same bound as a stdio message; larger is a 413 unread.
        SizeLimitHandler limit = new SizeLimitHandler(MAX_BODY_BYTES, -1);
        limit.setHandler(context);
        jetty.setHandler(limit);
        try {
            jetty.start();
        } catch (Exception e) {
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new ConfigException("cannot listen on " + o.host() + ":" + o.port() + " for MCP (" + e.getMessage()
                    + "): choose another --port or POLYRAG_MCP_PORT");
        }
        return jetty;
    }

    /** A started MCP server: its transport, and what ends it. */
    private static final class Running implements McpFrontDoor {
        private final Server jetty;
        private final McpSyncServer server;
        private final StdioGate gate;
        private final Tracing tracing;
        private final CountDownLatch closed = new CountDownLatch(1);

        Running(Server jetty, McpSyncServer server, StdioGate gate, Tracing tracing) {
            this.jetty = jetty;
            this.server = server;
            this.gate = gate;
            this.tracing = tracing;
        }

        @Override
        public int port() {
            return jetty == null ? -1 : ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
        }

        @Override
        public void await() throws InterruptedException {
            if (gate != null) {
                gate.await();
            } else {
                closed.await();
            }
        }

        @Override
        public void close() {
            if (closed.getCount() == 0) {
                return;
            }
            try {
                server.closeGracefully();
            } catch (RuntimeException e) {
                LOG.debug("closing the MCP server", e);
            }
            if (jetty != null) {
                try {
                    jetty.stop();
                } catch (Exception e) {
                    LOG.debug("stopping Jetty", e);
                }
            }
            // The spans not yet exported go out now.
            tracing.close();
            closed.countDown();
        }
    }
}
