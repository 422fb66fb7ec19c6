package io.polyrag.retrieval;

import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.FigureRef;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.port.Catalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns ranked hits into numbered sources: one number per document, in order of its first hit, so a document keeps
 * its number however many of its chunks are used. Each hit is widened by {@code neighbours} chunks on either side
 * (same document version, from the catalog) and a document's passages are woven in reading order, overlaps merged.
 * The figures its hits carry go with the source: they share its number.
 */
public final class SourceAssembler {
    private final Catalog catalog;

    public SourceAssembler(Catalog catalog) {
        this.catalog = catalog;
    }

    public List<AnswerSource> assemble(List<SearchHit> hits, int neighbours) {
        Map<String, List<SearchHit>> byDocument = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            byDocument.computeIfAbsent(h.documentId(), d -> new ArrayList<>()).add(h);
        }
        List<AnswerSource> sources = new ArrayList<>();
        for (List<SearchHit> docHits : byDocument.values()) {
            SearchHit first = docHits.getFirst();
            List<FigureRef> figures = new ArrayList<>();
            docHits.forEach(h -> h.figures().stream().filter(f -> !figures.contains(f)).forEach(figures::add));
            sources.add(new AnswerSource(sources.size() + 1, first.documentId(), first.title(), first.uri(),
                    first.knowledgeBase(), passages(docHits, neighbours), figures));
        }
        return sources;
    }

    private List<AnswerSource.Passage> passages(List<SearchHit> hits, int neighbours) {
        Set<String> hitIds = new HashSet<>();
        TreeMap<Integer, AnswerSource.Passage> byOrdinal = new TreeMap<>();
        for (SearchHit h : hits) {
            hitIds.add(h.chunkId());
            int ordinal = h.ordinal();
            List<Chunk> window = neighbours > 0
                    ? catalog.chunks(h.documentId(), h.version(), ordinal - neighbours, ordinal + neighbours)
                    : List.of();
            if (window.isEmpty()) {
                byOrdinal.putIfAbsent(ordinal, new AnswerSource.Passage(h.chunkId(), ordinal, h.kind(),
                        h.headingPath(), h.text(), true, h.location()));
            }
            for (Chunk c : window) {
                if (c.kind() == ChunkKind.FIGURE) {
                    continue;
                }
                byOrdinal.putIfAbsent(c.ordinal(), new AnswerSource.Passage(c.id(), c.ordinal(), c.kind(),
                        c.headingPath(), c.text(), false, c.location()));
            }
        }
        return byOrdinal.values().stream().map(p -> hitIds.contains(p.chunkId()) && !p.hit()
                ? new AnswerSource.Passage(p.chunkId(), p.ordinal(), p.kind(), p.headingPath(), p.text(), true,
                        p.location()) : p)
                .toList();
    }
}
