package io.polyrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What start_document_ingest may read on the adapter's host: over the network nothing unless the operator names
 * folders, then only files that resolve inside them (never the data directory); over stdio anything but the data
 * directory. And a networked transport without authentication refuses to listen beyond loopback. The REST API is a
 * local HTTP server recording the multipart bodies it receives.
 */
class HostFilesTest {
    @TempDir
    Path tmp;
    private HttpServer rest;
    private final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        rest = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        rest.createContext("/v1/ingest/files", ex -> {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            ex.getRequestBody().transferTo(body);
            received.add(body.toString(StandardCharsets.UTF_8));
            byte[] out = "{\"job_id\":\"j1\",\"status\":\"queued\"}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(202, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        rest.start();
    }

    @AfterEach
    void stop() {
        rest.stop(0);
    }

    /** Two folders' summary.md were sent as "summary.md" both: one document, the second ingest replacing the first. */
    @Test
    void a_folders_files_are_sent_under_their_path_from_the_folder_named() throws Exception {
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        for (String year : List.of("2023", "2024")) {
            Files.createDirectories(notes.resolve(year + "/q1"));
            Files.writeString(notes.resolve(year + "/summary.md"), "# " + year + "\n\nThe year's summary.");
            Files.writeString(notes.resolve(year + "/q1/summary.md"), "# Q1 " + year + "\n\nThe quarter.");
        }
        Map<String, String> settings = Map.of("mcp.allowed.roots", notes.toString());
        Map<String, Object> ok = ingest("stdio", settings, List.of(notes.resolve("2023").toString(),
                notes.resolve("2024").toString(), notes.resolve("2024/summary.md").toString()));
        assertThat(ok.get("ok")).as(String.valueOf(ok)).isEqualTo(true);
        String sent = received.getLast();
        // Named by their path from the root (the test's folder is not under the home folder): one file, one name,
        // however it was named — the file named alone is the one its folder held, sent once.
        String from = FolderWalk.sentName(notes);
        for (String f : List.of("2023/summary.md", "2023/q1/summary.md", "2024/summary.md", "2024/q1/summary.md")) {
            assertThat(sent.split("filename=\"" + from + "/" + f + "\"", -1)).as(f).hasSize(2);
        }
        assertThat(sent).doesNotContain("filename=\"summary.md\"");
        assertThat(FolderWalk.sentName(Path.of(System.getProperty("user.home"), "notes", "a.md")))
                .isEqualTo("notes/a.md");
    }

    @Test
    void over_the_network_no_host_file_is_read_unless_the_operator_names_folders() throws Exception {
        Path secret = Files.writeString(tmp.resolve("shadow"), "root:$6$hash");
        Map<String, Object> e = ingest("streamable-http", Map.of(), List.of(secret.toString()));
        assertThat(e.get("ok")).isEqualTo(false);
        assertThat(String.valueOf(e.get("error"))).contains("field=paths").contains("POLYRAG_MCP_ALLOWED_ROOTS")
                .contains("POST /v1/ingest/files");
        assertThat(received).as("nothing was sent").isEmpty();
    }

    @Test
    void with_allowed_folders_only_files_resolving_inside_them_and_outside_the_data_directory_are_sent()
            throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("share"));
        Path data = Files.createDirectories(tmp.resolve("data/blobs/x"));
        Files.writeString(data.resolve("content"), "another tenant's original");
        Path outside = Files.writeString(tmp.resolve("shadow"), "root:$6$hash");
        Files.writeString(allowed.resolve("notes.md"), "# Notes\n\nThe lamp is trimmed at dusk.");
        Files.createSymbolicLink(allowed.resolve("shadow.md"), outside);
        Map<String, String> settings = Map.of("mcp.allowed.roots", allowed + "," + tmp.resolve("data"), "data.dir",
                tmp.resolve("data").toString());

        Map<String, Object> ok = ingest("streamable-http", settings, List.of(allowed.resolve("notes.md").toString()));
        assertThat(ok.get("ok")).as(String.valueOf(ok)).isEqualTo(true);
        assertThat(received).singleElement().satisfies(b -> assertThat(b).contains("trimmed at dusk"));

        Map<String, Object> link = ingest("streamable-http", settings, List.of(allowed.resolve("shadow.md")
                .toString()));
        assertThat(String.valueOf(link.get("error"))).contains("outside").contains("field=paths");
        Map<String, Object> dataDir = ingest("streamable-http", settings, List.of(data.resolve("content")
                .toString()));
        assertThat(String.valueOf(dataDir.get("error"))).contains("data directory");
        // Outside the roots, a file that exists and one that does not get the same answer: no probe of the host.
        for (Path probe : List.of(outside, tmp.resolve("no-such-file"))) {
            assertThat(String.valueOf(ingest("streamable-http", settings, List.of(probe.toString())).get("error")))
                    .as(probe.toString()).contains("resolves outside").doesNotContain("no such file");
        }
        Map<String, Object> folder = ingest("streamable-http", settings, List.of(allowed.toString()));
        assertThat(folder.get("ok")).isEqualTo(true);
        assertThat(received.getLast()).as("the folder's link leading out is left out").contains("trimmed at dusk")
                .doesNotContain("root:$6$");

        // A link to a file inside the allowed folder is the file; a folder named by a link is walked where it leads.
        Path vault = Files.createDirectories(allowed.resolve("vault"));
        Files.writeString(vault.resolve("tide.md"), "# Tide\n\nHigh water at the quay comes at noon.");
        Path linked = Files.createDirectories(allowed.resolve("linked"));
        Files.createSymbolicLink(linked.resolve("tide.md"), vault.resolve("tide.md"));
        Map<String, Object> links = ingest("streamable-http", settings, List.of(linked.toString()));
        assertThat(links.get("ok")).as(String.valueOf(links)).isEqualTo(true);
        assertThat(received.getLast()).contains("High water at the quay");
        Path alias = Files.createSymbolicLink(allowed.resolve("alias"), vault);
        Map<String, Object> aliased = ingest("streamable-http", settings, List.of(alias.toString()));
        assertThat(aliased.get("ok")).as(String.valueOf(aliased)).isEqualTo(true);
        assertThat(received.getLast()).contains("High water at the quay");
    }

    /**
     * An allowed folder named through a link (/home -> /var/home) takes the files named through it; a path the file
     * system cannot hold (a NUL) is a bad 'paths', not an adapter crash.
     */
    @Test
    void a_root_named_through_a_link_takes_its_files_and_a_nul_path_is_refused_by_field() throws Exception {
        Path real = Files.createDirectories(tmp.resolve("var-home/alice"));
        Files.writeString(real.resolve("a.md"), "# A\n\nThe fog bell rings twice.");
        Path link = Files.createSymbolicLink(tmp.resolve("home"), tmp.resolve("var-home"));
        Map<String, String> settings = Map.of("mcp.allowed.roots", link.resolve("alice").toString());
        Map<String, Object> ok = ingest("streamable-http", settings, List.of(link.resolve("alice/a.md").toString()));
        assertThat(ok.get("ok")).as(String.valueOf(ok)).isEqualTo(true);
        assertThat(received.getLast()).contains("fog bell");
        Path odd = Files.writeString(tmp.resolve("Smith, J. [2024] - Paper.md"), "# Paper\n\nThe gannet dives.");
        Map<String, Object> named = ingestRaw("stdio", Map.of(), odd.toString());
        assertThat(named.get("ok")).as(String.valueOf(named)).isEqualTo(true);
        assertThat(received.getLast()).contains("gannet dives");
        Map<String, Object> nul = ingest("stdio", Map.of(), List.of("a\u0000b.md"));
        assertThat(String.valueOf(nul.get("error"))).contains("field=paths").contains("not a valid path")
                .doesNotContain("internal error");
    }

    @Test
    void over_stdio_the_users_files_are_read_but_not_the_data_directory() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(data.resolve("catalog.db"), "catalog bytes");
        Path mine = Files.writeString(tmp.resolve("mine.md"), "# Mine\n\nMy own notes.");
        Map<String, String> settings = Map.of("data.dir", data.toString());
        assertThat(ingest("stdio", settings, List.of(mine.toString())).get("ok")).isEqualTo(true);
        assertThat(String.valueOf(ingest("stdio", settings, List.of(data.resolve("catalog.db").toString()))
                .get("error"))).contains("data directory");
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), data);
        assertThat(String.valueOf(ingest("stdio", settings, List.of(alias.toString())).get("error")))
                .as("a link to it is it").contains("data directory");
    }

    /**
     * A folder's walk leaves out hidden folders at any depth and any polyrag data directory inside it (with
     * --backend-url the server's is not the adapter's own), and asking for a file inside one is refused.
     */
    @Test
    void a_folder_is_sent_without_its_hidden_folders_or_a_data_directory_inside_it() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Files.writeString(project.resolve("notes.md"), "# Notes\n\nThe lamp is trimmed at dusk.");
        Files.createDirectories(project.resolve("src/.git"));
        Files.writeString(project.resolve("src/.git/config"), "[remote] secret-token");
        Path served = Files.createDirectories(project.resolve("served-data"));
        Files.writeString(served.resolve(".lock"), "");
        Files.createDirectories(served.resolve("blobs/abc"));
        Files.writeString(served.resolve("blobs/abc/content"), "another tenant's original");
        Map<String, String> settings = Map.of("data.dir", tmp.resolve("adapter-data").toString());
        Map<String, Object> folder = ingest("stdio", settings, List.of(project.toString()));
        assertThat(folder.get("ok")).as(String.valueOf(folder)).isEqualTo(true);
        assertThat(received.getLast()).contains("trimmed at dusk").doesNotContain("secret-token")
                .doesNotContain("another tenant's original");
        assertThat(String.valueOf(ingest("stdio", settings, List.of(served.resolve("blobs/abc/content").toString()))
                .get("error"))).contains("data directory");
        // A link to a file inside a data directory, named or met in a folder, is that file: never sent.
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("notes.md"), "# More\n\nThe oil is filled at noon.");
        Files.createSymbolicLink(elsewhere.resolve("x.md"), served.resolve("blobs/abc/content"));
        assertThat(String.valueOf(ingest("stdio", settings, List.of(elsewhere.resolve("x.md").toString()))
                .get("error"))).contains("data directory");
        assertThat(ingest("stdio", settings, List.of(elsewhere.toString())).get("ok")).isEqualTo(true);
        assertThat(received.getLast()).contains("filled at noon").doesNotContain("another tenant's original");
    }

    /** A blob folder of its own (every tenant's stored originals) is as closed as the data directory. */
    @Test
    void the_blob_folder_is_never_read() throws Exception {
        Path shared = java.nio.file.Files.createDirectories(tmp.resolve("shared"));
        Path blobs = java.nio.file.Files.createDirectories(shared.resolve("blobs/xyz"));
        java.nio.file.Files.writeString(blobs.resolve("content"), "another tenant's stored original");
        Map<String, String> settings = Map.of("data.dir", tmp.resolve("adapter-data2").toString(), "blob.dir",
                shared.resolve("blobs").toString(), "mcp.allowed.roots", shared.toString());
        Map<String, Object> r = ingest("stdio", settings, List.of(blobs.resolve("content").toString()));
        assertThat(r.get("ok")).as(String.valueOf(r)).isNotEqualTo(true);
        assertThat(received).noneMatch(x -> x.contains("another tenant's stored original"));
    }

    @Test
    void a_networked_transport_without_authentication_will_not_listen_beyond_loopback() {
        Config config = Config.load(Map.of(), Map.of());
        assertThatThrownBy(() -> new McpServers().start(new McpFrontDoor.Options("streamable-http",
                URI.create("http://127.0.0.1:9"), null, "0.0.0.0", 0, null, null, config)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("without authentication")
                .hasMessageContaining("POLYRAG_MCP_JWT_JWKS_URL").hasMessageContaining("127.0.0.1");
        // With a token required, every address bound and no name allowed, every remote call would be a 421.
        Config jwt = Config.load(Map.of(), Map.of("mcp.jwt.jwks.url", "http://127.0.0.1:9/jwks.json",
                "mcp.jwt.audience", "polyrag"));
        assertThatThrownBy(() -> new McpServers().start(new McpFrontDoor.Options("streamable-http",
                URI.create("http://127.0.0.1:9"), null, "0.0.0.0", 0, null, null, jwt)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_MCP_ALLOWED_HOSTS");
        // An audience and issuer with no key set: no token would be asked for, said at start.
        Config noKeys = Config.load(Map.of(), Map.of("mcp.jwt.audience", "polyrag", "mcp.jwt.issuer",
                "https://id.example.com"));
        assertThatThrownBy(() -> new McpServers().start(new McpFrontDoor.Options("streamable-http",
                URI.create("http://127.0.0.1:9"), null, "127.0.0.1", 0, null, null, noKeys)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_MCP_JWT_JWKS_URL is not");
    }

    /** As a client of a server elsewhere the adapter has no data directory: the user's own ./data folder is theirs. */
    @Test
    void a_client_only_adapter_reads_a_folder_named_data_as_any_other() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("project/data"));
        Files.writeString(data.resolve("report.md"), "# Report\n\nThe harbour dues rose in May.");
        Map<String, String> client = Map.of("mcp.allowed.roots", tmp.toString(), "data.dir", data.toString(),
                "mcp.backend.url", "http://127.0.0.1:" + rest.getAddress().getPort());
        Map<String, Object> ok = ingest("stdio", client, List.of(data.resolve("report.md").toString()));
        assertThat(ok.get("ok")).as(String.valueOf(ok)).isEqualTo(true);
        assertThat(received.getLast()).contains("harbour dues");
        // A blob folder named is not read, client or not (it has no lock file to mark it).
        Path blobs = Files.createDirectories(tmp.resolve("project/blobs/x"));
        Files.writeString(blobs.resolve("content"), "another tenant's original");
        Map<String, Object> blob = ingest("stdio", Map.of("mcp.allowed.roots", tmp.toString(), "blob.dir",
                tmp.resolve("project/blobs").toString(), "mcp.backend.url", "http://127.0.0.1:"
                + rest.getAddress().getPort()), List.of(blobs.resolve("content").toString()));
        assertThat(blob.get("ok")).as(String.valueOf(blob)).isEqualTo(false);
        // Serving that folder as its data directory, it never reads it.
        Map<String, Object> own = ingest("stdio", Map.of("mcp.allowed.roots", tmp.toString(), "data.dir",
                data.toString()), List.of(data.resolve("report.md").toString()));
        assertThat(String.valueOf(own.get("error"))).contains("data directory");
    }

    private Map<String, Object> ingest(String transport, Map<String, String> settings, List<String> paths) {
        return ingestRaw(transport, settings, paths);
    }

    private Map<String, Object> ingestRaw(String transport, Map<String, String> settings, Object paths) {
        Config config = Config.load(Map.of(), settings);
        McpFrontDoor.Options o = new McpFrontDoor.Options(transport, URI.create("http://127.0.0.1:"
                + rest.getAddress().getPort()), null, "127.0.0.1", 0, null, null, config);
        Tools tools = new Tools(new Backend(o.backend(), null, Duration.ofSeconds(10)), McpServers.hostFiles(o), 200);
        Tools.Tool t = tools.all().stream().filter(x -> x.name().equals("start_document_ingest")).findFirst()
                .orElseThrow();
        return McpServers.call(t, Map.of("paths", paths));
    }
}
