package io.polyrag.store.postgres;

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

    /** {@code POLYRAG_VECTOR_BACKEND=pgvector}. */
    public static final class Vector implements VectorStoreProvider {
        @Override
        public String name() {
            return "pgvector";
        }

        @Override
        public String description() {
            return "PostgreSQL + pgvector (HNSW, cosine) at POLYRAG_POSTGRES_URL";
        }

        @Override
        public VectorStore open(ProviderContext context, int dimension, String modelId) {
            PgDatabase db = PgDatabase.open(context.config(), "vector", Map.of("dimension",
                    Integer.toString(dimension)));
            try {
                return new PgVectorStore(db, dimension, modelId, context.config().get(Settings.VECTOR_EXACT_THRESHOLD));
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
