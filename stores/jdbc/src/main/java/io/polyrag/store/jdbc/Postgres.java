package io.polyrag.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.ConfigException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;

/** Connection pools to the PostgreSQL database the settings name, one per role, each checked when it opens. */
final class Postgres {
    private Postgres() {
    }

    /** A pool of {@code size} connections named {@code polyrag-<role>}; fails naming the address when it cannot connect. */
    static HikariDataSource pool(Config config, String role, int size) {
        String url = config.get(Settings.POSTGRES_URL);
        if (url == null || url.isBlank()) {
            throw new ConfigException(Settings.POSTGRES_URL.env() + " is not set: the postgres catalog needs a "
                    + "PostgreSQL database, e.g. jdbc:postgresql://127.0.0.1:5432/polyrag");
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new ConfigException(Settings.POSTGRES_URL.env() + " must be a jdbc:postgresql: URL, was '"
                    + redact(url) + "'");
        }
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url.strip());
        if (!config.get(Settings.POSTGRES_USER).isBlank()) {
            hc.setUsername(config.get(Settings.POSTGRES_USER));
        }
        if (!config.get(Settings.POSTGRES_PASSWORD).isBlank()) {
            hc.setPassword(config.get(Settings.POSTGRES_PASSWORD));
        }
        hc.setPoolName("polyrag-" + role);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setConnectionTimeout(config.get(Settings.POSTGRES_CONNECT_TIMEOUT_SECONDS) * 1000L);
        hc.setInitializationFailTimeout(config.get(Settings.POSTGRES_CONNECT_TIMEOUT_SECONDS) * 1000L);
        hc.addDataSourceProperty("ApplicationName", "polyrag-" + role);
        hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        try {
            return new HikariDataSource(hc);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new UnavailableException("cannot connect to PostgreSQL at " + redact(url) + " ("
                    + Settings.POSTGRES_URL.env() + "): " + root.getMessage(), e);
        }
    }

    /** The URL without a password parameter, for messages. */
    static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
