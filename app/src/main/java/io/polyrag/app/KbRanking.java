package io.polyrag.app;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.port.JudgmentStore.Judgment;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** A search's hits as the document ranking a judged query is scored on (tuning, a knowledge base's evaluation). */
final class KbRanking {
    private KbRanking() {
    }

    /**
     * Documents in order of their first hit, those not in {@code documents} (indexed since the job started) left out:
     * the same ranking as a search filtered to them, without handing every search thousands of ids. A hit's merged
     * near-duplicates (chunks of other documents saying the same, which the hit stands for and lists) count right
     * after it, as {@code polyrag eval} counts them: the response returns those documents too.
     */
    static List<String> ranking(List<SearchHit> hits, Set<String> documents) {
        Set<String> out = new LinkedHashSet<>();
        for (SearchHit h : hits) {
            if (documents.contains(h.documentId())) {
                out.add(h.documentId());
            }
            for (String chunk : h.merged()) {
                String merged = Chunk.documentIdOf(chunk);
                if (merged != null && documents.contains(merged)) {
                    out.add(merged);
                }
            }
        }
        return List.copyOf(out);
    }

    /** The judged documents whose visible version is not the one the tuning started with (or that are gone). */
    static List<String> changed(List<Judgment> judged, Map<String, Long> before, Map<String, Long> after) {
        Set<String> relevant = new TreeSet<>();
        judged.forEach(j -> relevant.addAll(j.relevant().keySet()));
        return relevant.stream().filter(id -> before.containsKey(id) && !before.get(id).equals(after.get(id)))
                .toList();
    }

    /** At most {@code max} judged queries: all of them, or the first by a hash of their ids. */
    static List<Judgment> sample(List<Judgment> judged, int max) {
        if (judged.size() <= max) {
            return judged;
        }
        return judged.stream().sorted(Comparator.comparing(j -> Ids.sha256Hex(j.queryId().getBytes(
                StandardCharsets.UTF_8)))).limit(max).toList();
    }
}
