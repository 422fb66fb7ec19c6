package io.polyrag.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Exact nearest neighbours: every live vector that passes the filter is scored with Lucene's (SIMD-accelerated)
 * cosine, and a bounded heap keeps the best. Used for indexes small enough that a scan costs a few milliseconds;
 * the results are what the HNSW graph approximates.
 */
final class ExactScan {
    private ExactScan() {
    }

    static ScoreDoc[] search(IndexSearcher searcher, String field, float[] query, Query filter, int k)
            throws IOException {
        PriorityQueue<ScoreDoc> heap = new PriorityQueue<>(k + 1, (a, b) -> a.score != b.score
                ? Float.compare(a.score, b.score) : Integer.compare(b.doc, a.doc));
        Weight weight = filter == null ? null
                : searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            if (values == null) {
                continue;
            }
            DocIdSetIterator allowed = null;
            if (weight != null) {
                Scorer scorer = weight.scorer(leaf);
                if (scorer == null) {
                    continue;
                }
                allowed = scorer.iterator();
            }
            Bits live = leaf.reader().getLiveDocs();
            KnnVectorValues.DocIndexIterator it = values.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                if (allowed != null && (allowed.docID() > doc || (allowed.docID() < doc && allowed.advance(doc) != doc))) {
                    continue;
                }
                float score = VectorSimilarityFunction.COSINE.compare(query, values.vectorValue(it.index()));
                if (heap.size() < k) {
                    heap.add(new ScoreDoc(leaf.docBase + doc, score));
                } else if (score > heap.peek().score) {
                    heap.poll();
                    heap.add(new ScoreDoc(leaf.docBase + doc, score));
                }
            }
        }
        ScoreDoc[] out = new ScoreDoc[heap.size()];
        for (int i = out.length - 1; i >= 0; i--) {
            out[i] = heap.poll();
        }
        return out;
    }

    /**
     * The candidates of a quantised graph walk scored again with the full vectors, best {@code k} first (ties by doc
     * id). Walks each segment's vectors forward once, in doc id order.
     */
    static ScoreDoc[] rescore(IndexSearcher searcher, String field, float[] query, ScoreDoc[] candidates, int k)
            throws IOException {
        ScoreDoc[] byDoc = candidates.clone();
        Arrays.sort(byDoc, (a, b) -> Integer.compare(a.doc, b.doc));
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<ScoreDoc> out = new ArrayList<>(byDoc.length);
        int leafIndex = -1;
        FloatVectorValues values = null;
        KnnVectorValues.DocIndexIterator it = null;
        for (ScoreDoc d : byDoc) {
            int li = ReaderUtil.subIndex(d.doc, leaves);
            if (li != leafIndex) {
                leafIndex = li;
                values = leaves.get(li).reader().getFloatVectorValues(field);
                it = values == null ? null : values.iterator();
            }
            int local = d.doc - leaves.get(li).docBase;
            if (it != null && (it.docID() == local || (it.docID() < local && it.advance(local) == local))) {
                out.add(new ScoreDoc(d.doc, VectorSimilarityFunction.COSINE.compare(query,
                        values.vectorValue(it.index()))));
            }
        }
        out.sort((a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.doc, b.doc));
        return out.subList(0, Math.min(k, out.size())).toArray(ScoreDoc[]::new);
    }
}
