package io.polyrag.store.jdbc;

import io.polyrag.core.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Runs units of work on a pooled connection, in one transaction each, translating SQL errors at the boundary. */
final class Jdbc {
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final DataSource dataSource;
    private final String name;

    Jdbc(DataSource dataSource, String name) {
        this.dataSource = dataSource;
        this.name = name;
    }

    /** Runs {@code work} in a transaction: committed if it returns, rolled back if it throws. */
    <T> T tx(String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("catalog (" + name + ") could not " + what + ": " + e.getMessage(), e);
        }
    }
}
