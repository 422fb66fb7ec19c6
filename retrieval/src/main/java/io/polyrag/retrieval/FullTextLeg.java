package io.polyrag.retrieval;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.FullTextStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Lexical retrieval: passages by BM25, each blended with its document's BM25 over the document's whole text where
 * the store keeps whole texts ({@link FullTextStore#searchDocuments}).
 *
 * <p>A passage's score is {@code (1 − w) · passage / best passage + w · document / best document}: a document that
 * holds the query's words spread over several passages ranks as a whole-document BM25 ranks it, and its passages by
 * their own words within that. BM25 over a short passage sees only the words that passage holds; on SciFact cut into
 * 64-token passages that cost the leg 0.031 nDCG@10 against BM25 over each whole abstract, and the default fused
 * search half of it (docs/evaluation.md). A document among the best by its whole text with no passage among the best
 * passages is represented by its best passage (among the first {@link #REPRESENTED_DEPTH} documents). With {@code w} 0,
 * or a store that keeps no whole texts, the passages' own scores are returned unchanged.
 */
final class FullTextLeg extends BlendedLeg {
    /**
     * How many of the best documents are sure to be represented by a passage. Deeper ones rarely have no passage
     * among the best, and would not reach the fused top with one: on SciFact in 64-token passages, 20 and every one
     * give the same nDCG@10 on both splits, and 20 takes 0.2 of the leg's 1.1 ms off at 35k passages.
     */
    private static final int REPRESENTED_DEPTH = 20;
    /**
     * How many times the leg's depth the blend reads of passages before it cuts to that depth: a passage below the
     * first hundred by its own BM25 whose document ranks high by its whole text belongs among the first hundred after
     * the blend, and the fused ranking's normalisation sees the leg's list as it should be. On SciFact's train claims
     * (a search's legs 100 deep, as users get): 1 → 2 → 3 times (passages and documents alike), the default fused
     * search 0.7664 → 0.7700 → 0.7699, in 64-token passages 0.7604 → 0.7634 → 0.7637; the leg's own top ten is the
     * same. Documents are read only as deep as the leg's list: twice as deep changed no ranking that counts (train:
     * 0.7694 both, 64-token passages 0.7698 against 0.7699, four abstracts joined 0.7396 against 0.7393) and cost a
     * tenth of the leg.
     */
    private static final int OVERFETCH = 2;
    private final FullTextStore store;

    FullTextLeg(FullTextStore store, double documentWeight) {
        super(documentWeight, "fulltext.document.weight", SearchRequest.Tuning::documentWeight);
        this.store = store;
    }

    @Override
    public Modality modality() {
        return Modality.FULLTEXT;
    }

    @Override
    Leg run(String query, SearchScope scope, int limit, double w, String whose) {
        if (w <= 0) {
            return new Leg(store.search(query, scope, limit), "");
        }
        // Not past 10,000: a search engine's result window (OpenSearch's index.max_result_window) ends there.
        int deep = Math.max(limit, (int) Math.min(10_000L, (long) limit * OVERFETCH));
        // Documents first: a store without every whole text answers none, and its passages are read only as deep as
        // the leg returns.
        Map<DocumentVersion, Double> documents = store.searchDocuments(query, scope, limit);
        if (documents.isEmpty()) {
            return new Leg(store.search(query, scope, limit), "");
        }
        List<StoreHit> passages = store.search(query, scope, deep);
        if (passages.isEmpty()) {
            return new Leg(passages, "");
        }
        return new Leg(blend(query, scope, passages, documents, limit, w), String.format(Locale.ROOT, "each "
                + "passage's BM25 blended with its document's over the whole text, weight %.2f (%s)", w, whose));
    }

    private List<StoreHit> blend(String query, SearchScope scope, List<StoreHit> passages,
            Map<DocumentVersion, Double> documents, int limit, double w) {
        double bestPassage = passages.stream().mapToDouble(StoreHit::score).max().orElse(1);
        double bestDocument = documents.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
        Set<DocumentVersion> represented = new HashSet<>();
        passages.forEach(p -> represented.add(version(p)));
        List<DocumentVersion> missing = documents.keySet().stream().limit(REPRESENTED_DEPTH)
                .filter(v -> !represented.contains(v)).toList();
        List<StoreHit> all = new ArrayList<>(passages);
        if (!missing.isEmpty()) {
            for (StoreHit h : store.bestPassages(query, scope, missing)) {
                if (represented.add(version(h))) {
                    all.add(h);
                }
            }
        }
        List<StoreHit> out = new ArrayList<>(all.size());
        Map<String, Double> raw = new HashMap<>();
        for (StoreHit h : all) {
            raw.merge(h.chunkId(), h.score(), Math::max);
            double document = documents.getOrDefault(version(h), 0.0) / bestDocument;
            double passage = bestPassage > 0 ? h.score() / bestPassage : 0;
            out.add(new StoreHit(h.chunkId(), h.documentId(), h.version(), (1 - w) * passage + w * document));
        }
        // Ties (every passage of a document at a document weight of 1) by the passage's own score, then chunk id:
        // by chunk id alone, "d-v1-10" came before "d-v1-2" whatever their words.
        out.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(Comparator.comparingDouble(
                (StoreHit x) -> raw.get(x.chunkId())).reversed()).thenComparing(StoreHit::chunkId));
        return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    }

    private static DocumentVersion version(StoreHit h) {
        return new DocumentVersion(h.documentId(), h.version());
    }
}
