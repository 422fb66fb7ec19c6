package io.polyrag.retrieval;

import io.polyrag.core.model.SourceScore;
import java.util.Comparator;
import java.util.Map;

/**
 * A chunk after fusion: its fused score and where each retriever ranked it.
 *
 * @param chunkId the chunk
 * @param score the fused score
 * @param sources rank and score per modality wire name
 */
public record FusedHit(String chunkId, double score, Map<String, SourceScore> sources) {
    /** Fused score, then best rank in any source, then chunk id: a total, deterministic order. */
    public static final Comparator<FusedHit> ORDER = Comparator.comparingDouble(FusedHit::score).reversed()
            .thenComparingInt(FusedHit::bestRank).thenComparing(FusedHit::chunkId);

    public FusedHit {
        sources = Map.copyOf(sources);
    }

    public int bestRank() {
        return sources.values().stream().mapToInt(SourceScore::rank).min().orElse(Integer.MAX_VALUE);
    }
}
