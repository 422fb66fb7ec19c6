package io.polyrag.store.lucene;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Lexical;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.WholeText;
import io.polyrag.core.model.WholeTextCoverage;
import io.polyrag.core.port.FullTextStore;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * BM25 over chunk text, and over each document as a whole, with Lucene's English analysis (standard tokenizer, lower-casing, English stopwords, Porter
 * stemming): the settings Anserini uses for its BEIR baselines.
 *
 * <p>The query is analysed with the same analyser and becomes a disjunction of its terms, a term repeated in the query
 * weighing more; no query syntax is parsed, so no input can fail to parse. At most
 * {@link IndexSearcher#getMaxClauseCount()} distinct terms are used, the first ones. Equal scores are ordered by chunk
 * id inside Lucene's own top-k, so the cut is deterministic too.
 *
 * <p>Each document version is also indexed once as a whole ({@link WholeText}): an entry beside the chunks, with BM25 statistics of its own field (document frequencies and lengths
 * counted over documents, not chunks), found by {@link #searchDocuments} and never by {@link #search}. An index
 * written before the whole entries existed (fewer of them than document versions) answers no document search until
 * {@code polyrag reindex --modality fulltext --all} has written it again.
 */
public final class LuceneFullTextStore implements FullTextStore {
    static final String BODY = "body";
    /** The text of a whole document version, on the entry beside its chunks. */
    static final String WHOLE = "whole";

    private final LuceneIndex index;
    private final Analyzer analyzer = new Folding();
    /** Whether every document version has its whole entry, counted again only when the index changed. */
    private final WholeTextCoverage coverage;

    /**
     * English analysis of text folded first ({@link Lexical#fold}), at index and query time alike. Text indexed before
     * this folding keeps its terms until {@code polyrag reindex --modality fulltext --all} writes it again.
     */
    static final class Folding extends AnalyzerWrapper {
        private final Analyzer english = new EnglishAnalyzer();

        Folding() {
            super(Analyzer.GLOBAL_REUSE_STRATEGY);
        }

        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            return english;
        }

        @Override
        protected Reader wrapReader(String fieldName, Reader reader) {
            try {
                StringBuilder sb = new StringBuilder();
                char[] buf = new char[8192];
                for (int n = reader.read(buf); n >= 0; n = reader.read(buf)) {
                    sb.append(buf, 0, n);
                }
                return new StringReader(Lexical.fold(sb.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public LuceneFullTextStore(Path path, double k1, double b) {
        this.index = new LuceneIndex(path, "full-text index", analyzer, new BM25Similarity((float) k1, (float) b));
        this.coverage = new WholeTextCoverage("the full-text index at " + path);
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        index.upsert(records, r -> {
            Document d = LuceneIndex.baseDocument(r);
            d.add(new TextField(BODY, r.text(), Field.Store.NO));
            return d;
        }, wholes(records));
    }

    /** One whole entry per document version of {@code records}: {@link WholeText}. */
    static List<Document> wholes(List<StoreRecord> records) {
        List<Document> out = new ArrayList<>();
        for (WholeText w : WholeText.of(records)) {
            DocumentVersion v = w.version();
            Document d = LuceneIndex.baseDocument(new StoreRecord(w.key(), v.documentId(), v.version(),
                    w.knowledgeBase(), "", null));
            d.removeField(LuceneIndex.DOC_VERSION);
            d.add(new StringField(LuceneIndex.BESIDE, LuceneIndex.docVersion(v.documentId(), v.version()),
                    Field.Store.NO));
            d.add(new StringField(LuceneIndex.ENTRY, LuceneIndex.ENTRY_BESIDE, Field.Store.NO));
            d.add(new TextField(WHOLE, w.text(), Field.Store.NO));
            out.add(d);
        }
        return out;
    }

    @Override
    public List<StoreHit> search(String query, SearchScope scope, int limit) {
        Map<String, Integer> terms = terms(query);
        if (terms.isEmpty() || limit <= 0) {
            return List.of();
        }
        return index.read(s -> sorted(LuceneReads.hits(s, top(s, filtered(query(terms, BODY),
                LuceneIndex.scopeFilter(s, scope)), limit), x -> x)));
    }

    @Override
    public Map<DocumentVersion, Double> searchDocuments(String query, SearchScope scope, int limit) {
        Map<String, Integer> terms = terms(query);
        if (terms.isEmpty() || limit <= 0) {
            return Map.of();
        }
        return index.read(s -> {
            if (!wholeComplete(s)) {
                return Map.of();
            }
            Map<DocumentVersion, Double> out = new LinkedHashMap<>();
            for (StoreHit h : sorted(LuceneReads.hits(s, top(s, filtered(query(terms, WHOLE),
                    LuceneIndex.scopeFilter(s, scope)), limit), x -> x))) {
                out.put(new DocumentVersion(h.documentId(), h.version()), h.score());
            }
            return out;
        });
    }

    @Override
    public List<StoreHit> bestPassages(String query, SearchScope scope, Collection<DocumentVersion> versions) {
        Map<String, Integer> terms = terms(query);
        if (terms.isEmpty() || versions.isEmpty()) {
            return List.of();
        }
        List<BytesRef> keys = versions.stream().distinct()
                .map(v -> new BytesRef(LuceneIndex.docVersion(v.documentId(), v.version()))).toList();
        return index.read(s -> {
            Query theirs = new BooleanQuery.Builder().add(filtered(query(terms, BODY), LuceneIndex.scopeFilter(s,
                    scope)), BooleanClause.Occur.MUST).add(new TermInSetQuery(LuceneIndex.DOC_VERSION, keys),
                            BooleanClause.Occur.FILTER).build();
            return sorted(LuceneReads.hits(s, s.search(theirs, BestPerVersion.manager())
                    .toArray(ScoreDoc[]::new), x -> x));
        });
    }

    private boolean wholeComplete(IndexSearcher s) throws IOException {
        long at = s.getIndexReader() instanceof DirectoryReader r ? r.getVersion() : -2;
        return coverage.complete(at, () -> {
            try {
                return LuceneIndex.besides(s) >= LuceneReads.versions(s).size();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static List<StoreHit> sorted(List<StoreHit> hits) {
        List<StoreHit> out = new ArrayList<>(hits);
        out.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(StoreHit::chunkId));
        return out;
    }

    private static Query filtered(Query q, Query filter) {
        return filter == null ? q : new BooleanQuery.Builder().add(q, BooleanClause.Occur.MUST)
                .add(filter, BooleanClause.Occur.FILTER).build();
    }

    /**
     * The best {@code limit} documents by score. Collected by score alone, so Lucene can skip documents that cannot
     * compete (block-max WAND); the hits are then ordered by score and chunk id. Only when equal scores straddle the
     * cut (duplicated texts, or a short query's many hits of equal term frequency and length) are the tied hits
     * ordered by chunk id ({@link TiedCut}), so which of them make the cut never depends on Lucene's internal document
     * order; an index from before the chunk-id doc values is searched again sorted by score then chunk id.
     */
    static ScoreDoc[] top(IndexSearcher s, Query query, int limit) throws IOException {
        ScoreDoc[] docs = s.search(query, limit + 1).scoreDocs;
        if (docs.length <= limit) {
            return docs;
        }
        if (docs[limit].score == docs[limit - 1].score) {
            ScoreDoc[] cut = TiedCut.top(s, query, docs, limit);
            if (cut != null) {
                return cut;
            }
            Sort sort = new Sort(SortField.FIELD_SCORE, new SortField(LuceneIndex.CHUNK_ID, SortField.Type.STRING));
            return s.search(query, limit, sort, true).scoreDocs;
        }
        return Arrays.copyOf(docs, limit);
    }

    /** The query's analysed terms as a weighted disjunction over the passages, or null when it has none. */
    Query toQuery(String text) {
        Map<String, Integer> terms = terms(text);
        return terms.isEmpty() ? null : query(terms, BODY);
    }

    /** Clauses of the clause limit a query leaves to its filters. */
    private static final int FILTER_CLAUSES = 16;

    /** The query's analysed terms, each with how often it occurs; at most the clause limit of them, the first. */
    private Map<String, Integer> terms(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (TokenStream ts = analyzer.tokenStream(BODY, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                String t = term.toString();
                // Room kept for the query's own filters (knowledge bases, documents, versions): the clause limit
                // counts every leaf of the whole query, and 1,024 terms with two filters failed the leg.
                if (counts.containsKey(t) || counts.size() < IndexSearcher.getMaxClauseCount() - FILTER_CLAUSES) {
                    counts.merge(t, 1, Integer::sum);
                }
            }
            ts.end();
        } catch (IOException e) {
            throw new StoreException("cannot analyse the query: " + e.getMessage(), e);
        }
        return counts;
    }

    /** The terms as a disjunction over {@code field}, a term repeated in the query weighing more. */
    private static Query query(Map<String, Integer> terms, String field) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        terms.forEach((t, n) -> {
            Query tq = new TermQuery(new Term(field, t));
            b.add(n == 1 ? tq : new BoostQuery(tq, n), BooleanClause.Occur.SHOULD);
        });
        return b.build();
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
        analyzer.close();
    }
}
