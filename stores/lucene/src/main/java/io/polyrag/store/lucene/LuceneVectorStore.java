package io.polyrag.store.lucene;

import io.polyrag.core.ConfigException;
import io.polyrag.core.StoreException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.VectorStore;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * Vectors in a Lucene HNSW graph (cosine similarity).
 *
 * <p>Recall: an index of fewer than {@code exactThreshold} vectors is scanned whole, so its results are exact (the
 * scan uses Lucene's vectorised similarity: a few milliseconds for tens of thousands of vectors). A larger index is
 * searched through its HNSW graph, exploring at least {@value #MIN_CANDIDATES} candidates (twice the limit when that
 * is more) before keeping the best {@code limit}; the contract test checks recall@10 above 0.95 against an exact
 * scan. A knowledge-base scope is applied as a filter inside either search, so a small knowledge base in a large
 * index still gets its full {@code limit}. The model id and dimension are recorded beside the index; a
 * different model is refused at open.
 */
public final class LuceneVectorStore implements VectorStore {
    static final String VECTOR = "vector";
    static final int MIN_CANDIDATES = 100;

    private final LuceneIndex index;
    private final int dimension;
    private final int exactThreshold;

    /** A store that always searches its HNSW graph. */
    public LuceneVectorStore(Path path, int dimension, String modelId) {
        this(path, dimension, modelId, 0);
    }

    /**
     * @param exactThreshold below this many vectors, search scans them all instead of walking the graph
     */
    public LuceneVectorStore(Path path, int dimension, String modelId, int exactThreshold) {
        if (dimension < 1 || dimension > 4096) {
            throw new IllegalArgumentException("vector dimension must be in [1, 4096], was " + dimension);
        }
        checkModel(path, dimension, modelId);
        this.dimension = dimension;
        this.exactThreshold = exactThreshold;
        this.index = new LuceneIndex(path, "vector index", new KeywordAnalyzer(), new BM25Similarity());
    }

    /**
     * Whether the index at {@code path} holds vectors of another model (or dimension) than this one; false when it
     * holds this model's, or none yet.
     */
    static boolean holdsOtherModel(Path path, int dimension, String modelId) {
        Path meta = path.resolve("polyrag-vectors.properties");
        if (!Files.exists(meta)) {
            return false;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new StoreException("cannot read " + meta + ": " + e.getMessage(), e);
        }
        return !modelId.equals(p.getProperty("model")) || !Integer.toString(dimension).equals(p.getProperty(
                "dimension"));
    }

    /** Refuses an index built by another model: its neighbours would be meaningless. */
    private static void checkModel(Path path, int dimension, String modelId) {
        Path meta = path.resolve("polyrag-vectors.properties");
        try {
            Files.createDirectories(path);
            if (Files.exists(meta)) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
                    p.load(r);
                }
                String model = p.getProperty("model");
                int dim = Integer.parseInt(p.getProperty("dimension", "0"));
                if (!modelId.equals(model) || dim != dimension) {
                    throw new ConfigException("the vector index at " + path + " holds " + dim + "-dimension vectors of "
                            + "model '" + model + "', but the configured embedder is '" + modelId + "' (" + dimension
                            + " dimensions): set POLYRAG_EMBEDDING_MODEL back to '" + model + "', or delete " + path
                            + " and re-ingest to re-embed every document with the new model");
                }
                return;
            }
            Properties p = new Properties();
            p.setProperty("model", modelId);
            p.setProperty("dimension", Integer.toString(dimension));
            try (Writer w = Files.newBufferedWriter(meta, StandardCharsets.UTF_8)) {
                p.store(w, "written by polyrag: the model whose vectors this index holds");
            }
        } catch (IOException | NumberFormatException e) {
            throw new StoreException("cannot read or write " + meta + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        for (StoreRecord r : records) {
            if (r.vector() == null || r.vector().length != dimension) {
                throw new IllegalArgumentException("chunk " + r.chunkId() + " has a vector of "
                        + (r.vector() == null ? "no" : r.vector().length) + " floats; this store holds " + dimension);
            }
        }
        index.upsert(records, this::toDocument);
    }

    private Document toDocument(StoreRecord r) {
        Document d = LuceneIndex.baseDocument(r);
        d.add(new KnnFloatVectorField(VECTOR, r.vector(), VectorSimilarityFunction.COSINE));
        return d;
    }

    @Override
    public List<StoreHit> search(float[] vector, SearchScope scope, int limit) {
        if (vector.length != dimension) {
            throw new IllegalArgumentException("query vector has " + vector.length + " floats; this store holds "
                    + dimension);
        }
        if (limit <= 0) {
            return List.of();
        }
        int candidates = Math.max(2 * limit, MIN_CANDIDATES);
        Query filter = LuceneIndex.scopeFilter(scope);
        // Lucene's cosine score is (1 + cos) / 2; report the cosine itself.
        List<StoreHit> hits = index.search(s -> s.getIndexReader().numDocs() < exactThreshold
                ? ExactScan.search(s, VECTOR, vector, filter, candidates)
                : s.search(new KnnFloatVectorQuery(VECTOR, vector, candidates, filter), candidates).scoreDocs,
                score -> 2 * score - 1);
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        index.delete(versions);
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        index.deleteDocuments(documentIds);
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public java.util.Map<DocumentVersion, Long> versions() {
        return index.versions();
    }

    @Override
    public long records(DocumentVersion version) {
        return index.records(version);
    }

    @Override
    public void close() {
        index.close();
    }
}
