package io.polyrag.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.util.BytesRef;

/**
 * The best {@code limit} hits of a query when equal scores straddle the cut: every hit scoring above the cut's score,
 * then of the hits scoring it, those with the smallest chunk ids. So which tied hits make the cut never depends on
 * Lucene's internal document order (which merges change). Scores within {@value #ULPS} ulps of the cut's count as
 * equal to it: a sum of clause scores can differ in its last bits with the order a segment's scorer adds them in.
 *
 * <p>Done before by sorting the whole search by score then chunk id: that sort's comparator copies the chunk id of
 * every competitive hit out of the compressed terms dictionary, and on short queries — one or two words, whose BM25
 * scores tie by the hundred (equal term frequency, equal quantised length) — the cut is tied in one search in seven
 * (SciFact's claims, 200 deep) and the sort was a quarter of the full-text leg's time. Here the tied hits are found in
 * one pass that skips everything scoring below the tie, are ordered within each segment by their chunk ids' ordinals
 * (integers, in the same order as the ids), and only the few that can make the cut are read as text to merge the
 * segments.
 */
final class TiedCut {
    /** Two sums of the same clause scores added in another order differ by a few ulps: within this many, equal. */
    private static final int ULPS = 16;

    private TiedCut() {
    }

    /**
     * The cut of {@code first} (the top {@code limit + 1} by score, whose last two tie) decided by chunk id, or null
     * when a segment holds tied hits without the chunk-id doc values (written by a release before them): the caller
     * then sorts by score and chunk id instead.
     */
    static ScoreDoc[] top(IndexSearcher s, Query query, ScoreDoc[] first, int limit) throws IOException {
        float tie = first[limit - 1].score;
        float below = Math.max(0f, tie - ULPS * Math.ulp(tie)); // scores are never negative
        float above = tie + ULPS * Math.ulp(tie);
        int kept = 0;
        while (kept < limit && first[kept].score > above) {
            kept++;
        }
        Set<Integer> ahead = new HashSet<>();
        for (int i = 0; i < kept; i++) {
            ahead.add(first[i].doc);
        }
        List<Tied> tied = s.search(query, manager(below, ahead));
        if (tied == null) {
            return null;
        }
        List<Integer> chosen = smallest(tied, limit - kept);
        if (chosen.size() < limit - kept) {
            return null; // fewer tied hits than the first search saw: let the sort decide
        }
        ScoreDoc[] out = Arrays.copyOf(first, limit);
        for (int i = 0; i < chosen.size(); i++) {
            out[kept + i] = new ScoreDoc(chosen.get(i), tie);
        }
        return out;
    }

    /** The tied hits of one segment: their doc ids and chunk-id ordinals, packed, sorted by ordinal. */
    private record Tied(LeafReaderContext leaf, SortedDocValues ids, long[] byOrdinal) {
    }

    /**
     * The global doc ids of the {@code need} tied hits with the smallest chunk ids: a merge of the segments' lists
     * (each already in chunk-id order), reading a chunk id only when its hit reaches the head of its segment's list;
     * with one segment holding tied hits, its first {@code need} and no read at all.
     */
    private static List<Integer> smallest(List<Tied> tied, int need) throws IOException {
        List<Tied> holding = tied.stream().filter(t -> t.byOrdinal().length > 0).toList();
        List<Integer> out = new ArrayList<>(need);
        if (holding.size() == 1) {
            Tied t = holding.getFirst();
            for (int i = 0; i < Math.min(need, t.byOrdinal().length); i++) {
                out.add(t.leaf().docBase + (int) t.byOrdinal()[i]);
            }
            return out;
        }
        record Head(Tied from, int at, BytesRef id) {
        }
        PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.id().compareTo(b.id()));
        for (Tied t : holding) {
            heads.add(new Head(t, 0, id(t, 0)));
        }
        while (out.size() < need && !heads.isEmpty()) {
            Head h = heads.poll();
            out.add(h.from().leaf().docBase + (int) h.from().byOrdinal()[h.at()]);
            int next = h.at() + 1;
            if (next < Math.min(need, h.from().byOrdinal().length)) {
                heads.add(new Head(h.from(), next, id(h.from(), next)));
            }
        }
        return out;
    }

    private static BytesRef id(Tied t, int at) throws IOException {
        return BytesRef.deepCopyOf(t.ids().lookupOrd((int) (t.byOrdinal()[at] >>> 32)));
    }

    private static CollectorManager<TieCollector, List<Tied>> manager(float below, Set<Integer> ahead) {
        return new CollectorManager<>() {
            @Override
            public TieCollector newCollector() {
                return new TieCollector(below, ahead);
            }

            @Override
            public List<Tied> reduce(Collection<TieCollector> collectors) {
                List<Tied> all = new ArrayList<>();
                for (TieCollector c : collectors) {
                    if (c.missing) {
                        return null;
                    }
                    for (Segment g : c.segments) {
                        long[] packed = Arrays.copyOf(g.found, g.count);
                        Arrays.sort(packed);
                        all.add(new Tied(g.leaf, g.ids, packed));
                    }
                }
                return all;
            }
        };
    }

    /** One segment's tied hits as they are collected: chunk-id ordinal and doc id, packed. */
    private static final class Segment {
        final LeafReaderContext leaf;
        final SortedDocValues ids;
        long[] found = new long[16];
        int count;

        Segment(LeafReaderContext leaf, SortedDocValues ids) {
            this.leaf = leaf;
            this.ids = ids;
        }
    }

    /** Collects, per segment, the hits scoring at least {@code below} that are not already ahead of the tie. */
    private static final class TieCollector implements Collector {
        private final float below;
        private final Set<Integer> ahead;
        private final List<Segment> segments = new ArrayList<>();
        private boolean missing;

        TieCollector(float below, Set<Integer> ahead) {
            this.below = below;
            this.ahead = ahead;
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.TOP_SCORES;
        }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            Segment g = new Segment(context, context.reader().getSortedDocValues(LuceneIndex.CHUNK_ID));
            segments.add(g);
            return new LeafCollector() {
                private Scorable scorer;

                @Override
                public void setScorer(Scorable s) throws IOException {
                    this.scorer = s;
                    s.setMinCompetitiveScore(below);
                }

                @Override
                public void collect(int doc) throws IOException {
                    if (scorer.score() < below || ahead.contains(g.leaf.docBase + doc)) {
                        return;
                    }
                    if (g.ids == null || !g.ids.advanceExact(doc)) {
                        missing = true;
                        return;
                    }
                    if (g.count == g.found.length) {
                        g.found = Arrays.copyOf(g.found, g.count * 2);
                    }
                    g.found[g.count++] = (long) g.ids.ordValue() << 32 | doc;
                }
            };
        }
    }
}
