package io.polyrag.store.lucene;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.FullTextStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * BM25 over chunk text with Lucene's English analysis (standard tokenizer, lower-casing, English stopwords, Porter
 * stemming): the settings Anserini uses for its BEIR baselines.
 *
 * <p>The query is analysed with the same analyser and becomes a disjunction of its terms, a term repeated in the query
 * weighing more; no query syntax is parsed, so no input can fail to parse. At most
 * {@link IndexSearcher#getMaxClauseCount()} distinct terms are used, the first ones. Equal scores are ordered by chunk
 * id inside Lucene's own top-k, so the cut is deterministic too.
 */
public final class LuceneFullTextStore implements FullTextStore {
    static final String BODY = "body";

    private final LuceneIndex index;
    private final Analyzer analyzer = new EnglishAnalyzer();

    public LuceneFullTextStore(Path path, double k1, double b) {
        this.index = new LuceneIndex(path, "full-text index", analyzer, new BM25Similarity((float) k1, (float) b));
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        index.upsert(records, r -> {
            Document d = LuceneIndex.baseDocument(r);
            d.add(new TextField(BODY, r.text(), Field.Store.NO));
            return d;
        });
    }

    @Override
    public List<StoreHit> search(String query, SearchScope scope, int limit) {
        Query q = toQuery(query);
        if (q == null || limit <= 0) {
            return List.of();
        }
        return index.search(s -> {
            Query filter = LuceneIndex.scopeFilter(s, scope);
            Query full = filter == null ? q : new BooleanQuery.Builder().add(q, BooleanClause.Occur.MUST)
                    .add(filter, BooleanClause.Occur.FILTER).build();
            return top(s, full, limit);
        }, score -> score);
    }

    /**
     * The best {@code limit} documents by score. Collected by score alone, so Lucene can skip documents that cannot
     * compete (block-max WAND); the hits are then ordered by score and chunk id. Only when equal scores straddle the
     * cut (duplicated texts score the same) is the search run again sorted by score then chunk id, so which of them
     * make the cut never depends on Lucene's internal document order. The tie-break sort used to run on every search
     * and cost about a fifth of the full-text leg (its string comparisons decode the chunk ids' terms dictionary).
     */
    static ScoreDoc[] top(IndexSearcher s, Query query, int limit) throws IOException {
        ScoreDoc[] docs = s.search(query, limit + 1).scoreDocs;
        if (docs.length <= limit) {
            return docs;
        }
        if (docs[limit].score == docs[limit - 1].score) {
            Sort sort = new Sort(SortField.FIELD_SCORE, new SortField(LuceneIndex.CHUNK_ID, SortField.Type.STRING));
            return s.search(query, limit, sort, true).scoreDocs;
        }
        return Arrays.copyOf(docs, limit);
    }

    /** The query's analysed terms as a weighted disjunction, or null when it has none. */
    Query toQuery(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (TokenStream ts = analyzer.tokenStream(BODY, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                String t = term.toString();
                if (counts.containsKey(t) || counts.size() < IndexSearcher.getMaxClauseCount()) {
                    counts.merge(t, 1, Integer::sum);
                }
            }
            ts.end();
        } catch (IOException e) {
            throw new StoreException("cannot analyse the query: " + e.getMessage(), e);
        }
        if (counts.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        counts.forEach((t, n) -> {
            Query tq = new TermQuery(new Term(BODY, t));
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
