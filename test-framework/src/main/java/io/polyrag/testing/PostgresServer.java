package io.polyrag.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A PostgreSQL server of a test's own (its own cluster, port and process, with pgvector), so the test can really
 * stop it — as a crash ({@code pg_ctl stop -m immediate}) — and start it again, which the shared server of
 * {@link TestPostgres} must never be. Needs PostgreSQL 15's binaries with pgvector ({@code .ci/postgres.sh} installs
 * them); as root it runs the server as the {@code postgres} user.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private final Path dir;
    private final int port;

    private PostgresServer(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Null when a server can be made here, else what is missing and how to get it. */
    public static String missing() {
        if (!Files.isExecutable(BIN.resolve("pg_ctl"))) {
            return "PostgreSQL 15 is not installed at " + BIN + " (bash .ci/postgres.sh installs it with pgvector)";
        }
        if (!Files.exists(Path.of("/usr/share/postgresql/15/extension/vector.control"))) {
            return "pgvector is not installed for PostgreSQL 15 (bash .ci/postgres.sh builds it)";
        }
        if (root() && !TestServices.runs("id", "postgres")) {
            return "running as root, but there is no 'postgres' user to run the server as";
        }
        return null;
    }

    /** Creates a cluster in a new temporary folder and starts it on a free loopback port. */
    public static PostgresServer start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("polyrag-pg-own");
        if (root()) {
            run(List.of("chown", "postgres", dir.toString()));
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PostgresServer server = new PostgresServer(dir, port);
        server.pg(BIN.resolve("initdb").toString(), "-A", "trust", "-U", "postgres", "-D",
                dir.resolve("data").toString());
        server.startAgain();
        run(List.of(BIN.resolve("psql").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres",
                "-qc", "CREATE EXTENSION IF NOT EXISTS vector"));
        return server;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/postgres?user=postgres}. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    public int port() {
        return port;
    }

    /** Stops the server as a crash would: every connection dropped at once, no checkpoint. */
    public void crash() throws IOException, InterruptedException {
        pg(BIN.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop");
    }

    /** Starts the stopped server again on the same port and data. */
    public void startAgain() throws IOException, InterruptedException {
        pg(BIN.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("log").toString(), "-w", "start", "-o", "-c listen_addresses=127.0.0.1 -p " + port + " -k "
                        + dir + " -c fsync=off -c max_connections=100");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            crash();
        } catch (IOException e) {
            // already stopped
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void pg(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (root()) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(List.of(command));
        run(cmd);
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }
}
