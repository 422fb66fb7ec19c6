package io.polyrag.store.lucene;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.similarities.Similarity;
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

    private static final Set<String> HIT_FIELDS = Set.of(CHUNK_ID, DOC_ID, VERSION);

    private final Path path;
    private final FSDirectory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile boolean closed;

    LuceneIndex(Path path, Analyzer analyzer, Similarity similarity) {
        this.path = path;
        try {
            Files.createDirectories(path);
            this.directory = FSDirectory.open(path);
            IndexWriterConfig iwc = new IndexWriterConfig(analyzer).setSimilarity(similarity)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND).setRAMBufferSizeMB(64);
            this.writer = openWriter(directory, iwc, path);
            // The searcher scores: without its own factory it would use Lucene's default BM25 (k1 1.2, b 0.75)
            // whatever the writer was given.
            this.searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    return searcher;
                }
            });
        } catch (IOException e) {
            throw new StoreException("cannot open the Lucene index at " + path + ": " + e.getMessage(), e);
        }
    }

    private static IndexWriter openWriter(FSDirectory directory, IndexWriterConfig iwc, Path path)
            throws IOException {
        try {
            return new IndexWriter(directory, iwc);
        } catch (LockObtainFailedException e) {
            directory.close();
            throw new UnavailableException("the index at " + path + " is already in use by another process: "
                    + "stop it, or give this one its own data directory", e);
        }
    }

    Path path() {
        return path;
    }

    /** The fields every record has: identity, document version, knowledge base. */
    static Document baseDocument(StoreRecord r) {
        Document d = new Document();
        d.add(new StringField(CHUNK_ID, r.chunkId(), Field.Store.YES));
        d.add(new SortedDocValuesField(CHUNK_ID, new BytesRef(r.chunkId())));
        d.add(new StringField(DOC_ID, r.documentId(), Field.Store.YES));
        d.add(new StringField(DOC_VERSION, docVersion(r.documentId(), r.version()), Field.Store.NO));
        d.add(new StoredField(VERSION, r.version()));
        d.add(new StringField(KB, r.knowledgeBase(), Field.Store.NO));
        return d;
    }

    static String docVersion(String documentId, long version) {
        return documentId + "@" + version;
    }

    void upsert(List<StoreRecord> records, Function<StoreRecord, Document> toDocument) {
        if (records.isEmpty()) {
            return;
        }
        List<Document> docs = records.stream().map(toDocument).toList();
        BytesRef[] ids = records.stream().map(r -> new BytesRef(r.chunkId())).toArray(BytesRef[]::new);
        write("write", () -> {
            writer.deleteDocuments(new TermInSetQuery(CHUNK_ID, List.of(ids)));
            writer.addDocuments(docs);
        });
    }

    void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        List<BytesRef> terms = versions.stream()
                .map(v -> new BytesRef(docVersion(v.documentId(), v.version()))).toList();
        write("delete from", () -> writer.deleteDocuments(new TermInSetQuery(DOC_VERSION, terms)));
    }

    void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        List<BytesRef> terms = documentIds.stream().map(BytesRef::new).toList();
        write("delete from", () -> writer.deleteDocuments(new TermInSetQuery(DOC_ID, terms)));
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private void write(String what, IoAction action) {
        ensureOpen();
        writeLock.lock();
        try {
            action.run();
            writer.commit();
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new StoreException("cannot " + what + " the Lucene index at " + path + ": " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** The scope as a filter, or null when every knowledge base is in scope. */
    static Query scopeFilter(SearchScope scope) {
        if (scope.knowledgeBases().isEmpty()) {
            return null;
        }
        return new TermInSetQuery(KB, scope.knowledgeBases().stream().sorted().map(BytesRef::new).toList());
    }

    interface SearchAction {
        ScoreDoc[] run(IndexSearcher searcher) throws IOException;
    }

    /**
     * Runs a search and turns its documents into hits, best first, equal scores ordered by chunk id.
     *
     * @param score maps Lucene's score to the store's
     */
    List<StoreHit> search(SearchAction action, java.util.function.DoubleUnaryOperator score) {
        ensureOpen();
        IndexSearcher searcher;
        try {
            searcher = searchers.acquire();
        } catch (IOException e) {
            throw new StoreException("cannot read the Lucene index at " + path + ": " + e.getMessage(), e);
        }
        try {
            ScoreDoc[] docs = action.run(searcher);
            StoredFields fields = searcher.storedFields();
            List<StoreHit> hits = new ArrayList<>(docs.length);
            for (ScoreDoc sd : docs) {
                Document d = fields.document(sd.doc, HIT_FIELDS);
                hits.add(new StoreHit(d.get(CHUNK_ID), d.get(DOC_ID), d.getField(VERSION).numericValue().longValue(),
                        score.applyAsDouble(sd.score)));
            }
            hits.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(StoreHit::chunkId));
            return hits;
        } catch (IOException e) {
            throw new StoreException("cannot search the Lucene index at " + path + ": " + e.getMessage(), e);
        } finally {
            release(searcher);
        }
    }

    long size() {
        ensureOpen();
        try {
            IndexSearcher s = searchers.acquire();
            try {
                return s.getIndexReader().numDocs();
            } finally {
                release(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void release(IndexSearcher s) {
        try {
            searchers.release(s);
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
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new StoreException("cannot close the Lucene index at " + path + ": " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }
}
