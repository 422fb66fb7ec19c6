package io.polyrag.store.lucene;

import io.polyrag.core.model.DocumentVersion;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.util.BytesRef;

/**
 * Collects the best-scoring match of each document version: every match is scored (a top-k would let one version
 * with many matching chunks crowd out the rest), equal scores going to the smaller chunk id. Matches without the
 * identity doc values (records from releases before them) are skipped.
 */
final class BestPerVersion implements Collector {
    /** The best match of a version: its Lucene document and score, and its chunk id for ties. */
    private record Best(ScoreDoc doc, BytesRef chunkId) {
    }

    private final Map<DocumentVersion, Best> best = new HashMap<>();

    /** A manager for {@link org.apache.lucene.search.IndexSearcher#search(org.apache.lucene.search.Query,
     * CollectorManager)}: each slice's best merged. */
    static CollectorManager<BestPerVersion, Collection<ScoreDoc>> manager() {
        return new CollectorManager<>() {
            @Override
            public BestPerVersion newCollector() {
                return new BestPerVersion();
            }

            @Override
            public Collection<ScoreDoc> reduce(Collection<BestPerVersion> collectors) {
                BestPerVersion all = new BestPerVersion();
                collectors.forEach(c -> c.best.forEach(all::offer));
                return all.best.values().stream().map(Best::doc).toList();
            }
        };
    }

    private void offer(DocumentVersion v, Best candidate) {
        Best current = best.get(v);
        if (current == null || candidate.doc().score > current.doc().score || candidate.doc().score
                == current.doc().score && candidate.chunkId().compareTo(current.chunkId()) < 0) {
            best.put(v, candidate);
        }
    }

    @Override
    public ScoreMode scoreMode() {
        return ScoreMode.COMPLETE;
    }

    @Override
    public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
        BinaryDocValues documents = context.reader().getBinaryDocValues(LuceneIndex.DOC_ID_BYTES);
        BinaryDocValues chunks = context.reader().getBinaryDocValues(LuceneIndex.CHUNK_ID_BYTES);
        NumericDocValues versions = context.reader().getNumericDocValues(LuceneIndex.VERSION_VALUES);
        int base = context.docBase;
        return new LeafCollector() {
            private Scorable scorer;

            @Override
            public void setScorer(Scorable s) {
                this.scorer = s;
            }

            @Override
            public void collect(int doc) throws IOException {
                if (documents == null || chunks == null || versions == null || !documents.advanceExact(doc)
                        || !chunks.advanceExact(doc) || !versions.advanceExact(doc)) {
                    return;
                }
                DocumentVersion v = new DocumentVersion(documents.binaryValue().utf8ToString(),
                        versions.longValue());
                offer(v, new Best(new ScoreDoc(base + doc, scorer.score()), BytesRef.deepCopyOf(chunks
                        .binaryValue())));
            }
        };
    }
}
