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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues;

/**
 * Vectors in a Lucene HNSW graph (cosine similarity).
 *
 * <p>Recall: an index of fewer than {@code exactThreshold} vectors is scanned whole, so its results are exact (the
 * scan uses Lucene's vectorised similarity; at the default 2,000 vectors it is as fast as the graph walk, above it
 * slower: 0.67 against 0.30 ms p50 at 7,949 vectors, 0.77 against 0.43 at 10,009, for the same top ten). A larger index is
 * searched through its HNSW graph, exploring at least {@value #MIN_CANDIDATES} candidates (the limit when that is
 * more: a search for the 100 candidates of a fusion walks with k = 100 — twice that cost 0.7 ms more at 100,000
 * vectors for recall in the tail of the list only) before keeping the best {@code limit}; the contract test checks
 * recall@10 above 0.95 against an exact scan, and {@code bench/scale} measures it at 10k to 1M vectors. A
 * knowledge-base scope is applied as a filter inside either search, so a small knowledge base in a large index still
 * gets its full {@code limit}; a scope that covers every knowledge base the index holds is no filter. The model id and dimension are recorded beside the index; a
 * different model is refused at open.
 */
public final class LuceneVectorStore implements VectorStore {
    static final String VECTOR = "vector";
    /** A whole document version's vector, on the entry beside its records (doc values, not in the graph). */
    static final String WHOLE = "whole_vector";
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
        this(path, dimension, modelId, exactThreshold, Quantization.NONE);
    }

    /**
     * How the graph's copy of each vector is kept. With quantisation the graph is walked with the small copies and
     * its candidates are re-scored with the full vectors (kept beside them), so scores are exact cosines and the
     * ranking of the candidates found is exact; what quantisation can cost is a true neighbour the walk missed.
     */
    public enum Quantization {
        NONE(null, 1), INT7(QuantizedByteVectorValues.ScalarEncoding.SEVEN_BIT, 1),
        INT4(QuantizedByteVectorValues.ScalarEncoding.PACKED_NIBBLE, 2),
        INT1(QuantizedByteVectorValues.ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 4);

        private final QuantizedByteVectorValues.ScalarEncoding encoding;
        /** How many times the wanted candidates the graph walk gathers for re-scoring. */
        private final int oversample;

        Quantization(QuantizedByteVectorValues.ScalarEncoding encoding, int oversample) {
            this.encoding = encoding;
            this.oversample = oversample;
        }

        /** The setting's value ({@code none}, {@code int7}, {@code int4}, {@code int1}). */
        public static Quantization of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }

        /**
         * A codec whose vector field uses this encoding; null (Lucene's default) for none with vectors Lucene's
         * formats declare they take (1,024 dimensions), a wider declaration of the same format for wider ones.
         */
        Codec codec(int dimension) {
            if (encoding == null && dimension <= 1024) {
                return null;
            }
            KnnVectorsFormat chosen = encoding == null ? new Lucene99HnswVectorsFormat()
                    : new Lucene104HnswScalarQuantizedVectorsFormat(encoding, Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN,
                            Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH);
            KnnVectorsFormat format = dimension > 1024 ? new WideVectorsFormat(chosen) : chosen;
            return new Lucene104Codec() {
                @Override
                public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                    return format;
                }
            };
        }
    }

    private final Quantization quantization;

    /** @param quantization how the graph's copy of each vector is kept (new segments; merges rewrite old ones) */
    public LuceneVectorStore(Path path, int dimension, String modelId, int exactThreshold,
            Quantization quantization) {
        if (dimension < 1 || dimension > WideVectorsFormat.MAX_DIMENSIONS) {
            throw new IllegalArgumentException("vector dimension must be in [1, " + WideVectorsFormat.MAX_DIMENSIONS
                    + "], was " + dimension);
        }
        checkModel(path, dimension, modelId);
        this.dimension = dimension;
        this.exactThreshold = exactThreshold;
        this.quantization = quantization;
        this.index = new LuceneIndex(path, "vector index", new KeywordAnalyzer(), new BM25Similarity(),
                quantization.codec(dimension));
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
        // Naming no model (left empty by a power cut before the first release wrote it whole): this index's own.
        return p.getProperty("model") != null && (!modelId.equals(p.getProperty("model"))
                || !Integer.toString(dimension).equals(p.getProperty("dimension")));
    }

    /** Refuses an index built by another model: its neighbours would be meaningless. */
    private static void checkModel(Path path, int dimension, String modelId) {
        Path meta = path.resolve("polyrag-vectors.properties");
        try {
            Files.createDirectories(path);
            Properties found = new Properties();
            if (Files.exists(meta)) {
                try (Reader r = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
                    found.load(r);
                }
            }
            if (found.getProperty("model") != null) {
                Properties p = found;
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
            // Whole or not at all: written in place, a power cut soon after left it empty, and the index was taken
            // for another model's (a new empty one opened beside it, or the start refused).
            Path tmp = path.resolve("polyrag-vectors.properties.tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING); Writer w = Channels.newWriter(ch, StandardCharsets.UTF_8)) {
                p.store(w, "written by polyrag: the model whose vectors this index holds");
                w.flush();
                ch.force(true);
            }
            Files.move(tmp, meta, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
        upsert(records, Map.of());
    }

    @Override
    public void upsert(List<StoreRecord> records, Map<DocumentVersion, float[]> wholes) {
        for (StoreRecord r : records) {
            if (r.vector() == null || r.vector().length != dimension) {
                throw new IllegalArgumentException("chunk " + r.chunkId() + " has a vector of "
                        + (r.vector() == null ? "no" : r.vector().length) + " floats; this store holds " + dimension);
            }
        }
        for (Map.Entry<DocumentVersion, float[]> w : wholes.entrySet()) {
            if (w.getValue() == null || w.getValue().length != dimension) {
                throw new IllegalArgumentException("the whole vector of " + w.getKey() + " has "
                        + (w.getValue() == null ? "no" : w.getValue().length) + " floats; this store holds "
                        + dimension);
            }
        }
        Map<DocumentVersion, String> kbs = new HashMap<>();
        records.forEach(r -> kbs.putIfAbsent(r.documentVersion(), r.knowledgeBase()));
        List<Document> beside = new ArrayList<>();
        wholes.forEach((v, vector) -> {
            String kb = kbs.get(v);
            if (kb != null) {
                beside.add(whole(v, kb, vector));
            }
        });
        index.upsert(records, this::toDocument, beside);
    }

    /** A whole vector's entry: beside its version's records, out of the graph (doc values, not a vector field). */
    private static Document whole(DocumentVersion v, String kb, float[] vector) {
        Document d = LuceneIndex.baseDocument(new StoreRecord(v.documentId() + "@" + v.version() + "#whole",
                v.documentId(), v.version(), kb, "", null));
        d.removeField(LuceneIndex.DOC_VERSION);
        d.add(new StringField(LuceneIndex.BESIDE, LuceneIndex.docVersion(v.documentId(), v.version()),
                Field.Store.NO));
        d.add(new StringField(LuceneIndex.ENTRY, LuceneIndex.ENTRY_BESIDE, Field.Store.NO));
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        d.add(new BinaryDocValuesField(WHOLE, new BytesRef(bytes.array())));
        return d;
    }

    @Override
    public Map<DocumentVersion, Double> wholeCosines(float[] vector, Collection<DocumentVersion> versions) {
        if (versions.isEmpty() || vector.length != dimension) {
            return Map.of();
        }
        List<DocumentVersion> wanted = versions.stream().distinct().toList();
        return index.read(s -> {
            Map<DocumentVersion, Double> out = new HashMap<>();
            // Each version's entry found by its key, then its vector read from doc values (column-wise, forward
            // only, so in doc order), not from stored fields (a compressed block each).
            for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
                Terms terms = leaf.reader().terms(LuceneIndex.BESIDE);
                if (terms == null) {
                    continue;
                }
                TermsEnum keys = terms.iterator();
                Bits live = leaf.reader().getLiveDocs();
                PostingsEnum postings = null;
                TreeMap<Integer, DocumentVersion> found = new TreeMap<>();
                for (DocumentVersion v : wanted) {
                    if (keys.seekExact(new BytesRef(LuceneIndex.docVersion(v.documentId(), v.version())))) {
                        postings = keys.postings(postings, PostingsEnum.NONE);
                        for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
                            if (live == null || live.get(d)) {
                                found.put(d, v);
                            }
                        }
                    }
                }
                BinaryDocValues vectors = found.isEmpty() ? null : leaf.reader().getBinaryDocValues(WHOLE);
                for (Map.Entry<Integer, DocumentVersion> e : found.entrySet()) {
                    if (vectors == null || !vectors.advanceExact(e.getKey())) {
                        continue;
                    }
                    BytesRef b = vectors.binaryValue();
                    if (b.length == dimension * Float.BYTES) {
                        var floats = ByteBuffer.wrap(b.bytes, b.offset, b.length).order(ByteOrder.LITTLE_ENDIAN)
                                .asFloatBuffer();
                        double dot = 0;
                        for (int i = 0; i < dimension; i++) {
                            dot += vector[i] * floats.get(i);
                        }
                        out.put(e.getValue(), dot);
                    }
                }
            }
            return out;
        });
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
        // The graph walk keeps at least MIN_CANDIDATES; the exact scan needs no more than it returns.
        int candidates = Math.max(limit, MIN_CANDIDATES);
        // Lucene's cosine score is (1 + cos) / 2; report the cosine itself.
        List<StoreHit> hits = index.search(s -> {
            Query filter = LuceneIndex.scopeFilter(s, scope);
            // Entries beside the records (whole vectors) are not in the graph: they do not count.
            IndexReader reader = s.getIndexReader();
            return reader.numDocs() - reader.docFreq(new Term(LuceneIndex.ENTRY, LuceneIndex.ENTRY_BESIDE))
                    < exactThreshold
                    ? ExactScan.search(s, VECTOR, vector, filter, limit)
                    : graph(s, vector, candidates, filter);
        }, score -> 2 * score - 1);
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    /**
     * The graph walk. With quantised vectors it gathers more candidates (the coarser the copies, the more) and
     * re-scores them with the full vectors before keeping the best.
     */
    private ScoreDoc[] graph(IndexSearcher s, float[] vector, int candidates, Query filter) throws IOException {
        // Segments written under a quantised setting keep that format until a merge rewrites them: switched back
        // to none, their walk's scores were the small copies' estimates, reported as cosines and ranked against
        // exact ones. They are re-scored too.
        boolean rescore = quantization != Quantization.NONE || quantizedSegments(s);
        int walk = candidates * (quantization != Quantization.NONE ? quantization.oversample : rescore ? 2 : 1);
        ScoreDoc[] found = s.search(new KnnFloatVectorQuery(VECTOR, vector, walk, filter), walk).scoreDocs;
        return rescore ? ExactScan.rescore(s, VECTOR, vector, found, candidates) : found;
    }

    /** Whether a segment keeps its graph's vectors quantised (its field's format names it). */
    private static boolean quantizedSegments(IndexSearcher s) {
        for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            FieldInfo field = leaf.reader().getFieldInfos().fieldInfo(VECTOR);
            String format = field == null ? null : field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY);
            if (format != null && format.contains("Quantized")) {
                return true;
            }
        }
        return false;
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
    public Map<DocumentVersion, Long> versions() {
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
