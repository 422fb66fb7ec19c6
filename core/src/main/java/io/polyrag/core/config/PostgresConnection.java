package io.polyrag.core.config;

import io.polyrag.core.ConfigException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.UnavailableException;
import java.sql.SQLException;

/**
 * The PostgreSQL database the settings name, read and checked in one place for every adapter that connects to it
 * (the catalog, the vector and full-text stores). Each adapter builds its own connection pool from it: adapters
 * share code only through core, and core has no dependencies, so the pool library's few lines live with each.
 *
 * @param url the JDBC URL, a {@code jdbc:postgresql:} one
 * @param user empty when the URL or the server's defaults carry it
 * @param password empty likewise
 * @param connectTimeoutMs how long opening a connection (and the pool's first) may take
 */
public record PostgresConnection(String url, String user, String password, long connectTimeoutMs) {

    /**
     * The database of {@code POLYRAG_POSTGRES_URL} and its credentials, for {@code user} ("the postgres catalog",
     * "the vector store"); fails naming the setting and an example when it is missing or not PostgreSQL's.
     */
    public static PostgresConnection of(Config config, String user) {
        String url = config.get(Settings.POSTGRES_URL);
        if (url == null || url.isBlank()) {
            throw new ConfigException(Settings.POSTGRES_URL.env() + " is not set: " + user + " needs a PostgreSQL "
                    + "database, e.g. jdbc:postgresql://127.0.0.1:5432/polyrag");
        }
        if (!url.strip().startsWith("jdbc:postgresql:")) {
            throw new ConfigException(Settings.POSTGRES_URL.env() + " must be a jdbc:postgresql: URL for " + user
                    + ", e.g. jdbc:postgresql://127.0.0.1:5432/polyrag; was '" + redact(url) + "'");
        }
        return new PostgresConnection(url.strip(), config.get(Settings.POSTGRES_USER),
                config.get(Settings.POSTGRES_PASSWORD), config.get(Settings.POSTGRES_CONNECT_TIMEOUT_SECONDS) * 1000L);
    }

    /** The URL without its password, for messages and names. */
    public String redactedUrl() {
        return redact(url);
    }

    /** A URL without a password parameter. */
    public static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    /**
     * The error for a database that could not be reached by {@code user}: the address, the setting, the cause. A
     * server that answered and refused the connection (a role or password it does not accept, SQL states 28xxx; a
     * database it does not have, 3D000) is a configuration to fix (exit 2), not an outage to wait out (exit 3: "try
     * again later" would never pass).
     */
    public PolyragException unreachable(String user, Throwable e) {
        String state = sqlState(e);
        String why = rootCause(e).getMessage();
        if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
            return new ConfigException("PostgreSQL at " + redactedUrl() + " (" + Settings.POSTGRES_URL.env()
                    + ") refused " + user + ": " + why + (state.startsWith("28") ? "; check the user and password ("
                    + Settings.POSTGRES_USER.env() + ", " + Settings.POSTGRES_PASSWORD.env() + " or the URL's)"
                    : "; create that database, or name one that exists in the URL"), e);
        }
        return new UnavailableException("cannot connect to PostgreSQL at " + redactedUrl() + " ("
                + Settings.POSTGRES_URL.env() + ") for " + user + ": " + why, e);
    }

    /** The SQL state of the first cause that has one. */
    private static String sqlState(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }

    /** The innermost cause: the driver's own words, under the pool's and the migration tool's wrappers. */
    public static Throwable rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    @Override
    public String toString() {
        return "PostgresConnection[" + redactedUrl() + "]";
    }
}
