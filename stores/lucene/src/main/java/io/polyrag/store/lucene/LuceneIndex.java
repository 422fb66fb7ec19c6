package io.polyrag.store.lucene;

import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;

/**
 * One Lucene index of chunk records: the writing, deleting, committing and reader refresh that the vector and the
 * full-text store share. Each record is one Lucene document keyed by chunk id. Writes are serialised by a lock and
 * committed before they return, then the searcher is refreshed, so a returned write is durable and searchable.
 */
final class LuceneIndex implements AutoCloseable {
    static final String CHUNK_ID = "chunk_id";
    static final String DOC_ID = "doc_id";
    static final String DOC_VERSION = "doc_version";
    static final String VERSION = "version";
    static final String KB = "kb";
    /**
     * The document id and version again, as doc values, for reading hits. Fields of their own: Lucene refuses to add
     * doc values to a field that indexes written before had without them.
     */
    static final String DOC_ID_VALUES = "doc_id_values";
    static final String VERSION_VALUES = "version_values";
    /**
     * The chunk id and document id as binary doc values, read directly for each hit: the sorted doc values above (the
     * chunk id's also serves the tie-break sort) answer a document's value through their terms dictionary, an
     * LZ4-compressed block decoded per lookup, which cost two thirds as much as the exact scan of 1,500 vectors.
     */
    static final String CHUNK_ID_BYTES = "chunk_id_bytes";
    static final String DOC_ID_BYTES = "doc_id_bytes";

    /**
     * Marks an entry that is not a record but stands beside them (the full-text index's whole documents): the value
     * is its document version, as in {@link #DOC_VERSION}. Such entries are deleted with their version and document,
     * and are neither counted nor listed as records.
     */
    static final String BESIDE = "beside_of";
    /** Every entry standing beside the records has this term ({@value #ENTRY_BESIDE}), so they can be counted. */
    static final String ENTRY = "entry";
    static final String ENTRY_BESIDE = "beside";

    static final Set<String> HIT_FIELDS = Set.of(CHUNK_ID, DOC_ID, VERSION);

    private static final System.Logger LOG = System.getLogger(LuceneIndex.class.getName());

    private final Path path;
    private final String name;
    private final Analyzer analyzer;
    private final Similarity similarity;
    private final Codec codec;
    private final FSDirectory directory;
    private volatile IndexWriter writer;
    private volatile SearcherManager searchers;
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile boolean closed;
    /** Whether the marker of a first durable commit is known written ({@link DamagedIndex#COMMITTED}). */
    private boolean committed;

    /**
     * Opens (or creates) the index in {@code path}.
     *
     * <p>A folder that holds index files but no commit point ({@code segments_N} missing) is not
     * opened as a new empty index in place, which would make Lucene delete the remaining files: they are moved to a
     * sibling folder {@code <name>.damaged-<time>} and an empty index starts, so that the catalog check reports what
     * the store lacks and {@code polyrag check --repair} rebuilds it.
     *
     * @param name what users call this store in messages ("vector index", "full-text index")
     */
    LuceneIndex(Path path, String name, Analyzer analyzer, Similarity similarity) {
        this(path, name, analyzer, similarity, null);
    }

    /** @param codec how new segments are written; null for Lucene's default */
    LuceneIndex(Path path, String name, Analyzer analyzer, Similarity similarity,
            Codec codec) {
        this.codec = codec;
        this.path = path;
        this.name = name;
        this.analyzer = analyzer;
        this.similarity = similarity;
        try {
            Files.createDirectories(path);
            this.directory = FSDirectory.open(path);
        } catch (IOException e) {
            throw StorageProblems.exception(name, path, "open", e);
        }
        try {
            DamagedIndex.setAsideIfDamaged(directory, path, name);
            openWriter();
        } catch (IOException | RuntimeException e) {
            closeQuietly(directory);
            if (e instanceof UnavailableException u) {
                throw u;
            }
            throw StorageProblems.exception(name, path, "open", e);
        }
    }

    /** Opens the writer on the last commit, and a searcher manager on it. Called under the write lock or at open. */
    private void openWriter() throws IOException {
        ConcurrentMergeScheduler merges = new ConcurrentMergeScheduler() {
            @Override
            protected void handleMergeException(Throwable exc) {
                // One line, not a merge thread's stack trace; the next write reports the cause to its caller.
                LOG.log(System.Logger.Level.WARNING, "a background merge of the " + name + " failed: "
                        + StorageProblems.describe(name, path, "merge segments", exc));
            }
        };
        // Every write commits before it returns, so closing has nothing to commit: without this, close waited for
        // every pending and running merge (minutes of HNSW graph building on a large vector index), past a
        // container's stop grace, into a SIGKILL. Closing now drops them; they run again later.
        IndexWriterConfig iwc = new IndexWriterConfig(analyzer).setSimilarity(similarity)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND).setRAMBufferSizeMB(64)
                .setMergeScheduler(merges).setCommitOnClose(false);
        if (codec != null) {
            iwc.setCodec(codec);
        }
        IndexWriter w;
        try {
            w = new IndexWriter(directory, iwc);
        } catch (LockObtainFailedException e) {
            throw new UnavailableException("the index at " + path + " is already in use by another process: "
                    + "stop it, or give this one its own data directory", e);
        }
        // The searcher scores: without its own factory it would use Lucene's default BM25 (k1 1.2, b 0.75)
        // whatever the writer was given.
        SearcherManager m;
        try {
            m = new SearcherManager(w, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    return searcher;
                }
            });
        } catch (IOException | RuntimeException e) {
            // The new writer holds write.lock: left open, every later write failed as "in use by another process"
            // until a restart.
            try {
                w.rollback();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        SearcherManager old = searchers;
        this.writer = w;
        this.searchers = m;
        if (old != null) {
            // Searches holding one of its searchers release it through the manager they took it from.
            closeQuietly(old);
        }
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing after a failure", e);
        }
    }

    Path path() {
        return path;
    }

    /**
     * The fields every record has: identity, document version, knowledge base. Every document of an index is built
     * here, so each has a kb term: {@link #scopeFilter(IndexSearcher, SearchScope)} relies on it to tell that a scope
     * covers the whole index.
     */
    static Document baseDocument(StoreRecord r) {
        Document d = new Document();
        d.add(new StringField(CHUNK_ID, r.chunkId(), Field.Store.YES));
        d.add(new SortedDocValuesField(CHUNK_ID, new BytesRef(r.chunkId())));
        d.add(new StringField(DOC_ID, r.documentId(), Field.Store.YES));
        d.add(new SortedDocValuesField(DOC_ID_VALUES, new BytesRef(r.documentId())));
        d.add(new BinaryDocValuesField(CHUNK_ID_BYTES, new BytesRef(r.chunkId())));
        d.add(new BinaryDocValuesField(DOC_ID_BYTES, new BytesRef(r.documentId())));
        d.add(new StringField(DOC_VERSION, docVersion(r.documentId(), r.version()), Field.Store.NO));
        d.add(new StoredField(VERSION, r.version()));
        d.add(new NumericDocValuesField(VERSION_VALUES, r.version()));
        d.add(new StringField(KB, r.knowledgeBase(), Field.Store.NO));
        return d;
    }

    static String docVersion(String documentId, long version) {
        return documentId + "@" + version;
    }

    void upsert(List<StoreRecord> records, Function<StoreRecord, Document> toDocument) {
        upsert(records, toDocument, List.of());
    }

    /**
     * Writes the records and, in the same commit, entries standing beside them ({@link #BESIDE}), each keyed like a
     * record by its {@link #CHUNK_ID} term, which replaces an entry of the same key.
     */
    void upsert(List<StoreRecord> records, Function<StoreRecord, Document> toDocument, List<Document> beside) {
        if (records.isEmpty()) {
            return;
        }
        List<Document> docs = new ArrayList<>(records.stream().map(toDocument).toList());
        docs.addAll(beside);
        BytesRef[] ids = docs.stream().map(d -> new BytesRef(d.get(CHUNK_ID))).toArray(BytesRef[]::new);
        write("write", () -> {
            IndexWriter w = writer;
            w.deleteDocuments(new TermInSetQuery(CHUNK_ID, List.of(ids)));
            w.addDocuments(docs);
        });
    }

    void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        List<BytesRef> terms = versions.stream()
                .map(v -> new BytesRef(docVersion(v.documentId(), v.version()))).toList();
        write("delete", () -> writer.deleteDocuments(new TermInSetQuery(DOC_VERSION, terms),
                new TermInSetQuery(BESIDE, terms)));
    }

    void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        List<BytesRef> terms = documentIds.stream().map(BytesRef::new).toList();
        write("delete", () -> writer.deleteDocuments(new TermInSetQuery(DOC_ID, terms)));
    }

    private interface IoAction {
        void run() throws IOException;
    }

    /**
     * Runs a write and commits it. A failed write rolls the writer back to the last commit (so nothing of it can be
     * committed later by another write) and the next write reopens the writer: a full disk or a read-only folder
     * fails the writes made while it lasts, not every write until a restart.
     */
    private void write(String what, IoAction action) {
        ensureOpen();
        writeLock.lock();
        try {
            if (!writer.isOpen()) {
                openWriter();
            }
            action.run();
            writer.commit();
            if (!committed) {
                DamagedIndex.markCommitted(path);
                committed = true;
            }
            searchers.maybeRefreshBlocking();
        } catch (IOException | RuntimeException e) {
            rollback();
            if (e instanceof UnavailableException u) {
                throw u;
            }
            throw StorageProblems.exception(name, path, what, e);
        } finally {
            writeLock.unlock();
        }
    }

    private void rollback() {
        try {
            if (writer.isOpen()) {
                writer.rollback();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "rolling back the " + name + " after a failed write", e);
        }
    }

    /** The scope as a filter, or null when every knowledge base and document is in scope. */
    static Query scopeFilter(SearchScope scope) {
        return withDocuments(scope.knowledgeBases().isEmpty() ? null : new TermInSetQuery(KB,
                scope.knowledgeBases().stream().sorted().map(BytesRef::new).toList()), scope);
    }

    /**
     * {@code kb} narrowed to the scope's documents when it names some, as the networked stores do: without it a
     * search for a few documents of a large knowledge base took the best hits of all of it and kept those few's.
     */
    private static Query withDocuments(Query kb, SearchScope scope) {
        if (scope.documentIds().isEmpty()) {
            return kb;
        }
        Query documents = new TermInSetQuery(DOC_ID, scope.documentIds().stream().sorted().map(BytesRef::new)
                .toList());
        return kb == null ? documents : new BooleanQuery.Builder().add(kb, BooleanClause.Occur.FILTER)
                .add(documents, BooleanClause.Occur.FILTER).build();
    }

    /**
     * The scope's filter for this searcher, or null when the index holds no knowledge base outside the scope (the
     * usual case: one tenant's knowledge bases, or all of them). A filter that keeps every document is not free: an
     * HNSW search first collects what it matches into a bit set (a pass over every document of the index), and a
     * BM25 search intersects with it; skipping it changes no result.
     */
    static Query scopeFilter(IndexSearcher searcher, SearchScope scope) throws IOException {
        if (scope.knowledgeBases().isEmpty()) {
            return withDocuments(null, scope);
        }
        Set<String> wanted = scope.knowledgeBases();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Terms terms = leaf.reader().terms(KB);
            if (terms == null) {
                continue;
            }
            TermsEnum te = terms.iterator();
            for (BytesRef t = te.next(); t != null; t = te.next()) {
                if (!wanted.contains(t.utf8ToString())) {
                    return scopeFilter(scope);
                }
            }
        }
        return withDocuments(null, scope);
    }

    interface SearchAction {
        ScoreDoc[] run(IndexSearcher searcher) throws IOException;
    }

    /**
     * Runs a search and turns its documents into hits, best first, equal scores ordered by chunk id.
     *
     * @param score maps Lucene's score to the store's
     */
    List<StoreHit> search(SearchAction action, DoubleUnaryOperator score) {
        return read("search", searcher -> {
            ScoreDoc[] docs = action.run(searcher);
            List<StoreHit> hits = LuceneReads.hits(searcher, docs, score);
            hits.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(StoreHit::chunkId));
            return hits;
        });
    }

    interface Reading<T> {
        T read(IndexSearcher searcher) throws IOException;
    }

    /** Runs {@code reading} on one searcher (one point-in-time view of the index). */
    <T> T read(Reading<T> reading) {
        return read("search", reading);
    }

    private <T> T read(String what, Reading<T> reading) {
        ensureOpen();
        SearcherManager manager = searchers;
        IndexSearcher searcher;
        try {
            searcher = manager.acquire();
        } catch (AlreadyClosedException e) {
            // The writer was reopened meanwhile (the first write after a failed one), its searchers with it: this
            // read is served by the new ones, not failed as "the index could not read".
            ensureOpen();
            manager = searchers;
            searcher = acquire(manager);
        } catch (IOException e) {
            throw StorageProblems.exception(name, path, "read", e);
        }
        try {
            return reading.read(searcher);
        } catch (IOException e) {
            throw StorageProblems.exception(name, path, what, e);
        } finally {
            release(manager, searcher);
        }
    }

    private IndexSearcher acquire(SearcherManager manager) {
        try {
            return manager.acquire();
        } catch (IOException | AlreadyClosedException e) {
            throw StorageProblems.exception(name, path, "read", e);
        }
    }

    long size() {
        return read("read", s -> (long) s.getIndexReader().numDocs() - besides(s));
    }

    /** Live entries that stand beside the records ({@link #BESIDE}). */
    static int besides(IndexSearcher s) throws IOException {
        return s.count(new TermQuery(new Term(ENTRY, ENTRY_BESIDE)));
    }

    /** Live records per document version, read from the terms of the document-version field. */
    Map<DocumentVersion, Long> versions() {
        return read("read", s -> {
            Map<DocumentVersion, Long> out = new HashMap<>();
            for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
                LuceneReads.countVersions(leaf.reader(), out);
            }
            return out;
        });
    }

    /** Live records of one document version: one term lookup, not a walk over every version. */
    long records(DocumentVersion version) {
        return read("read", s -> (long) s.count(new TermQuery(new Term(DOC_VERSION,
                docVersion(version.documentId(), version.version())))));
    }

    private static void release(SearcherManager manager, IndexSearcher s) {
        try {
            manager.release(s);
        } catch (IOException e) {
            throw new StoreException("cannot release a Lucene searcher: " + e.getMessage(), e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the Lucene index at " + path + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writeLock.lock();
        try {
            searchers.close();
            if (writer.isOpen()) {
                writer.close();
            }
            directory.close();
        } catch (IOException e) {
            throw StorageProblems.exception(name, path, "close", e);
        } finally {
            writeLock.unlock();
        }
    }
}
