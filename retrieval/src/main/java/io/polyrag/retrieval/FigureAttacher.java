package io.polyrag.retrieval;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.FigureRef;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SourceScore;
import io.polyrag.core.port.Catalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Figures come with the passages they belong to. A figure is never a hit of its own: a figure chunk that retrieval
 * found (its caption matched the query) becomes a hit on the text chunk it is anchored to, in its place, unless that
 * chunk is already a hit. Then, up to {@code max} figures over the whole response: first those anchored to the hits,
 * in rank order, then those whose caption matched, each on the hit it belongs with.
 */
final class FigureAttacher {
    private final Catalog catalog;

    FigureAttacher(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Like {@link #attach(List, int, int, Set)}, looking up figures for every hit's document. */
    List<SearchHit> attach(List<SearchHit> ranked, int topK, int max) {
        Set<DocumentVersion> versions = new LinkedHashSet<>();
        ranked.forEach(h -> versions.add(new DocumentVersion(h.documentId(), h.version())));
        return attach(ranked, topK, max, versions);
    }

    /** The first {@code wanted} of {@code unique} as hits, then {@link #attach(List, int, int, Set)}. */
    List<SearchHit> attach(List<Dedup.Candidate> unique, int wanted, int topK, int max) {
        List<SearchHit> ranked = new ArrayList<>();
        Set<DocumentVersion> withFigures = new HashSet<>();
        for (int i = 0; i < Math.min(wanted, unique.size()); i++) {
            ranked.add(toHit(i + 1, unique.get(i)));
            ChunkView v = unique.get(i).view();
            if (v.documentFigures() > 0) {
                withFigures.add(new DocumentVersion(v.chunk().documentId(), v.chunk().version()));
            }
        }
        return attach(ranked, topK, max, withFigures);
    }

    /**
     * The first {@code topK} hits with figure hits folded into their anchors and figures attached, ranked 1…
     *
     * @param withFigures the hits' document versions that have figures (the catalog says so with each hit): the
     *     figures of these only are read, and none at all when it is empty (most searches)
     */
    // style: folding figure hits into their anchors and attaching figures, in one pass over the ranking
    List<SearchHit> attach(List<SearchHit> ranked, int topK, int max, Set<DocumentVersion> withFigures) {
        if (withFigures.isEmpty()) {
            // No hit's document has figures, so no hit is a figure either: the first top-k, as ranked.
            return ranked.size() <= topK ? ranked : List.copyOf(ranked.subList(0, topK));
        }
        boolean anyFigureHit = ranked.stream().anyMatch(h -> h.kind() == ChunkKind.FIGURE);
        List<Chunk> figures = max == 0 && !anyFigureHit ? List.of() : catalog.figures(withFigures);
        Map<DocumentVersion, List<Chunk>> byVersion = new HashMap<>();
        for (Chunk f : figures) {
            byVersion.computeIfAbsent(new DocumentVersion(f.documentId(), f.version()), k -> new ArrayList<>()).add(f);
        }
        // Fold figure hits into the text chunks they belong with.
        List<SearchHit> out = new ArrayList<>();
        Set<String> inOut = new HashSet<>();
        Set<String> matched = new HashSet<>();
        List<Map.Entry<String, Chunk>> byCaption = new ArrayList<>();
        for (SearchHit h : ranked) {
            if (out.size() >= topK) {
                break;
            }
            if (h.kind() != ChunkKind.FIGURE) {
                if (inOut.add(h.chunkId())) {
                    out.add(h);
                }
                continue;
            }
            Chunk figure = figures.stream().filter(f -> f.id().equals(h.chunkId())).findFirst().orElse(null);
            if (figure == null || figure.figure().anchors().isEmpty()) {
                continue;
            }
            matched.add(figure.id());
            // Its home: an anchor already listed; else an anchor ranked lower, moved up to the figure's place;
            // else its first anchor, read from the catalog.
            SearchHit home = out.stream().filter(t -> anchors(figure, h, t)).findFirst().orElse(null);
            if (home == null) {
                home = ranked.stream().filter(t -> t.kind() != ChunkKind.FIGURE && anchors(figure, h, t)
                        && !inOut.contains(t.chunkId())).findFirst().orElse(null);
                if (home != null) {
                    // At the figure's place with the figure's standing, as an anchor read from the catalog takes it:
                    // its own lower score there put a hit scored below the next one (explain's shares too).
                    Map<String, SourceScore> sources = new HashMap<>(home.sources());
                    h.sources().forEach((m, x) -> sources.merge(m, x, (a, b) -> a.rank() <= b.rank() ? a : b));
                    // The standing's own shares: merged per leg, they summed past the score explain says they make.
                    Map<String, Double> contributions = h.score() >= home.score() ? h.contributions()
                            : home.contributions();
                    home = home.toBuilder().score(Math.max(home.score(), h.score())).sources(sources)
                            .contributions(contributions).build();
                    inOut.add(home.chunkId());
                    out.add(home);
                }
            }
            if (home == null) {
                int a = figure.figure().anchors().getFirst();
                List<Chunk> anchor = catalog.chunks(h.documentId(), h.version(), a, a);
                if (anchor.isEmpty()) {
                    continue;
                }
                Chunk c = anchor.getFirst();
                home = SearchHit.builder().rank(h.rank()).score(h.score()).documentId(h.documentId()).chunkId(c.id())
                        .uri(h.uri()).title(h.title()).text(c.text()).kind(c.kind())
                        .headingPath(c.headingPath()).knowledgeBase(h.knowledgeBase()).sources(h.sources())
                        .version(c.version()).ordinal(c.ordinal()).location(c.location()).merged(h.merged())
                        .contributions(h.contributions()).build();
                if (inOut.add(home.chunkId())) {
                    out.add(home);
                }
            }
            byCaption.add(Map.entry(home.chunkId(), figure));
        }
        // Attach: anchored figures first, in rank order; then those whose caption matched.
        Map<String, List<FigureRef>> attached = new HashMap<>();
        Set<String> used = new HashSet<>();
        int budget = max;
        for (SearchHit h : out) {
            for (Chunk f : byVersion.getOrDefault(new DocumentVersion(h.documentId(), h.version()), List.of())) {
                if (budget > 0 && f.figure().anchors().contains(h.ordinal()) && used.add(f.id())) {
                    attached.computeIfAbsent(h.chunkId(), k -> new ArrayList<>()).add(ref(f,
                            !matched.contains(f.id())));
                    budget--;
                }
            }
        }
        for (Map.Entry<String, Chunk> e : byCaption) {
            if (budget > 0 && inOut.contains(e.getKey()) && used.add(e.getValue().id())) {
                attached.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(ref(e.getValue(), false));
                budget--;
            }
        }
        List<SearchHit> result = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            SearchHit h = out.get(i);
            result.add(h.atRank(i + 1).withFigures(attached.getOrDefault(h.chunkId(), List.of())));
        }
        return result;
    }

    /** Whether text hit {@code t} is one of the chunks figure hit {@code h}'s figure is anchored to. */
    private static boolean anchors(Chunk figure, SearchHit h, SearchHit t) {
        return t.kind() != ChunkKind.FIGURE && t.documentId().equals(h.documentId()) && t.version() == h.version()
                && figure.figure().anchors().contains(t.ordinal());
    }

    private static FigureRef ref(Chunk f, boolean anchored) {
        var fig = f.figure();
        return new FigureRef(f.documentId(), fig.number(), fig.caption(), f.location(), fig.mediaType(), fig.width(),
                fig.height(), anchored, fig.box());
    }

    private static SearchHit toHit(int rank, Dedup.Candidate c) {
        ChunkView v = c.view();
        return SearchHit.builder().rank(rank).score(c.hit().score()).documentId(v.chunk().documentId())
                .chunkId(v.chunk().id()).uri(v.uri()).title(v.title()).text(v.chunk().text())
                .kind(v.chunk().kind()).headingPath(v.chunk().headingPath()).knowledgeBase(v.knowledgeBase())
                .sources(c.hit().sources()).version(v.chunk().version()).ordinal(v.chunk().ordinal())
                .location(v.chunk().location()).merged(c.hit().merged()).contributions(c.hit().contributions())
                .build();
    }
}
