package io.polyrag.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server tests run against: {@code POLYRAG_TEST_POSTGRES_URL} (a JDBC URL; {@code .ci/run} starts one
 * with pgvector and sets it). Without it a suite skips, saying so — unless {@code POLYRAG_TEST_REQUIRE_SERVICES} is
 * {@code true} (CI), where a missing server is a failure, never a silent skip.
 */
public final class TestPostgres {
    public static final String URL_VARIABLE = "POLYRAG_TEST_POSTGRES_URL";

    private TestPostgres() {
    }

    /** The server's JDBC URL; skips (or fails under CI) when none is configured. */
    public static String url() {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            if (TestServices.required()) {
                throw new IllegalStateException(URL_VARIABLE + " is not set but POLYRAG_TEST_REQUIRE_SERVICES=true: "
                        + "start PostgreSQL with pgvector (.ci/postgres.sh prints the URL)");
            }
            Assumptions.abort("no PostgreSQL to test against: set " + URL_VARIABLE + " (.ci/postgres.sh starts one "
                    + "with pgvector and prints its URL)");
        }
        return url.strip();
    }

    /**
     * The URL of a schema of its own, made empty now, so each test starts from an empty database (PostgreSQL's
     * {@code currentSchema}); the same name gives the same schema, for tests that reopen.
     */
    public static String freshSchema(String name) {
        String schema = "t_" + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        schema = schema.length() > 60 ? schema.substring(0, 60) : schema;
        String url = url();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare schema " + schema + " on " + url + ": " + e.getMessage(), e);
        }
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema + ",public";
    }
}
