package io.polyrag.store.postgres;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.VectorStoreProvider;
import java.util.Map;

/** The PostgreSQL stores: {@code pgvector} for vectors, {@code postgres} for full text, at POLYRAG_POSTGRES_URL. */
public final class PostgresProviders {
    private PostgresProviders() {
    }

    /**
     * {@code POLYRAG_VECTOR_BACKEND=pgvector}: {@code polyrag_vectors} for the first embedding model, tables of their
     * own ({@code polyrag_vectors_m<hash>}) for each other one.
     */
    public static final class Vector implements VectorStoreProvider {
        /** The widest vector pgvector's HNSW index takes (a vector column; halfvec would take 4,000). */
        static final int MAX_DIMENSION = 2000;

        @Override
        public String name() {
            return "pgvector";
        }

        @Override
        public String description() {
            return "PostgreSQL + pgvector (HNSW, cosine) at POLYRAG_POSTGRES_URL";
        }

        /**
         * pgvector 0.8 or later: every search sets {@code hnsw.iterative_scan} (a knowledge base's top k from a table
         * shared with others), which older versions reject once their library is loaded, failing every search on a
         * connection after its first (0.6 and 0.7 ship in current distributions) while ingest went on working.
         */
        static void requireIterativeScans(String version) {
            if (version == null) {
                return; // not installed yet: the migration's CREATE EXTENSION installs the server's version
            }
            String[] parts = version.split("[.]");
            int major = parts.length > 0 && parts[0].matches("\\d+") ? Integer.parseInt(parts[0]) : 0;
            int minor = parts.length > 1 && parts[1].matches("\\d+") ? Integer.parseInt(parts[1]) : 0;
            if (major == 0 && minor < 8) {
                throw new ConfigException("pgvector " + version + " is installed in this database; polyrag needs 0.8 "
                        + "or later (its iterative index scans): ALTER EXTENSION vector UPDATE after installing a "
                        + "newer pgvector on the server (e.g. the pgvector/pgvector:pg17 image), or choose "
                        + "POLYRAG_VECTOR_BACKEND=lucene");
            }
        }

        @Override
        public VectorStore open(ProviderContext context, int dimension, String modelId) {
            if (dimension > MAX_DIMENSION) {
                // pgvector's HNSW index refuses a vector column wider than this; the migration failed with its words.
                throw new ConfigException("the embedding model " + modelId + " makes vectors of " + dimension
                        + " dimensions, and pgvector indexes at most " + MAX_DIMENSION + ": choose a model of at most "
                        + MAX_DIMENSION + " (or one that can shorten its vectors), or the embedded vector store "
                        + "(POLYRAG_VECTOR_BACKEND=lucene)");
            }
            PgDatabase db = PgDatabase.open(context.config(), "vector", Map.of("dimension",
                    Integer.toString(dimension)));
            try {
                requireIterativeScans(db.tx("read pgvector's version", c -> {
                    try (var ps = c.prepareStatement("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
                            var rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                }));
                // The first model the database saw keeps polyrag_vectors; each other one gets tables of its own, so a
                // change of model starts an empty index (back-filled by polyrag reindex) and leaves the first whole.
                String recorded = db.tx("read the embedding model", c -> {
                    try (var ps = c.prepareStatement("SELECT model, dimension FROM polyrag_vector_model");
                            var rs = ps.executeQuery()) {
                        return rs.next() ? rs.getString(1) + "|" + rs.getInt(2) : null;
                    }
                });
                String table = "polyrag_vectors";
                String mine = modelId + "|" + dimension;
                if (recorded != null && !recorded.equals(mine)) {
                    String suffix = "_m" + Integer.toHexString(mine.hashCode());
                    db.migrate("vector-model", "polyrag_vector" + suffix + "_schema_history", Map.of("dimension",
                            Integer.toString(dimension), "suffix", suffix));
                    table = "polyrag_vectors" + suffix;
                }
                return new PgVectorStore(db, dimension, modelId, context.config().get(Settings.VECTOR_EXACT_THRESHOLD),
                        table);
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
        }
    }

    /** {@code POLYRAG_FULLTEXT_BACKEND=postgres}. */
    public static final class FullText implements FullTextStoreProvider {
        @Override
        public String name() {
            return "postgres";
        }

        @Override
        public String description() {
            return "PostgreSQL full text (tsvector, GIN, BM25) at POLYRAG_POSTGRES_URL";
        }

        @Override
        public FullTextStore open(ProviderContext context) {
            return new PgFullTextStore(PgDatabase.open(context.config(), "fulltext", Map.of()),
                    context.config().get(Settings.BM25_K1), context.config().get(Settings.BM25_B));
        }
    }
}
