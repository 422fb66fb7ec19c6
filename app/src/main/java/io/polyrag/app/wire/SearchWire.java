package io.polyrag.app.wire;

import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.FigureRef;
import io.polyrag.core.model.GroundedSentence;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SourceScore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/** Search results and answers on the wire. */
public final class SearchWire {
    private SearchWire() {
    }

    /**
     * {@code POST /v1/search}: the fused hits, best first. {@code fusion} (with {@code explain}): the arithmetic that
     * made the scores, in words.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(String query, long tookMs, List<String> modalities, List<Degraded> degraded,
            List<String> warnings, String fusion, List<Hit> hits) {
    }

    /** With {@code explain}: what each modality added to a hit's fused score; they sum to it. */
    public record Explain(double score, Map<String, Double> contributions) {
    }

    /** A modality that could not answer; the others still did. */
    public record Degraded(String modality, String reason) {
    }

    /**
     * One fused hit: the chunk, where it is, and what each retriever said about it ({@code retrievers}: its rank and
     * score in each list that found it; {@code sources} is reserved for an answer's cited documents). {@code merged}: near-identical chunks folded into this one. {@code figures}:
     * the figures that belong with it.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Hit(int rank, double score, String documentId, String chunkId, String uri, String title,
            String text, String kind, List<String> headingPath, String location, String knowledgeBase, long version,
            int ordinal, Map<String, Score> retrievers, List<String> merged, Explain explain, List<FigureBody> figures) {
    }

    /**
     * A figure that belongs with a hit or a source: its caption, where it is, its image's type and size, and the
     * route that serves the image. {@code anchored}: it came with a passage it belongs to (false: its caption
     * matched the query). {@code box}: where it sits on its page or slide, {@code [x, y, width, height]} in points
     * from the top left; absent where the format does not say (Word).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FigureBody(String id, int number, String caption, String location, String mediaType, int width,
            int height, boolean anchored, String url, List<Double> box) {
    }

    public static FigureBody figure(FigureRef f) {
        return new FigureBody(f.documentId() + "/" + f.number(), f.number(), f.caption(), f.location(),
                f.mediaType(), f.width(), f.height(), f.anchored(), "/v1/documents/" + f.documentId() + "/figures/"
                        + f.number(), f.box() == null ? null : List.of(f.box().x(), f.box().y(), f.box().width(),
                                f.box().height()));
    }

    /** A modality's rank (1-based) and raw score for a hit. */
    public record Score(int rank, double score) {
    }

    /** {@code POST /v1/query}: an answer citing numbered sources. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record AnswerBody(String query, String answer, String mode, String note, long tookMs,
            List<Source> sources, List<Degraded> degraded, List<String> warnings, List<Grounded> grounding,
            String rewrittenQuery, String conversationId, Route route) {
    }

    /**
     * What the intent router decided for the question (present when it was asked: {@code answer.router} or the
     * request's {@code route}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Route(String intent, String scope, String reason, String by, int topK, int neighbours,
            String style) {
    }

    /** A numbered source: one document, with its hit chunks and their neighbours in reading order. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Source(int number, String documentId, String title, String uri, String knowledgeBase,
            List<Passage> passages, List<FigureBody> figures) {
    }

    /** A chunk of a source; {@code hit} false for a neighbour added for context. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Passage(String chunkId, int ordinal, String kind, List<String> headingPath, String text,
            boolean hit, String location) {
    }

    /** One answer sentence: the sources whose text covers it, those it cites, and whether any supports it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Grounded(String sentence, List<Integer> supportedBy, List<Integer> cited, boolean supported) {
    }

    public static Results of(SearchResponse r) {
        return of(r, false);
    }

    /** The results; with {@code explain}, each hit's per-modality contributions and the fusion in words. */
    public static Results of(SearchResponse r, boolean explain) {
        return new Results(r.query(), r.tookMs(), names(r.modalities()), degraded(r.degraded()), r.warnings(),
                explain ? r.fusion() : null, r.hits().stream().map(h -> hit(h, explain)).toList());
    }

    public static Hit hit(SearchHit h, boolean explain) {
        Map<String, Score> retrievers = new TreeMap<>();
        h.sources().forEach((m, s) -> retrievers.put(m, score(s)));
        return new Hit(h.rank(), h.score(), h.documentId(), h.chunkId(), h.uri(), h.title(), h.text(),
                h.kind() == null ? null : h.kind().wireName(), h.headingPath(), h.location(), h.knowledgeBase(),
                h.version(), h.ordinal(), retrievers, h.merged(), explain ? new Explain(h.score(),
                        new TreeMap<>(h.contributions())) : null, h.figures().stream().map(SearchWire::figure)
                        .toList());
    }

    private static Score score(SourceScore s) {
        return new Score(s.rank(), s.score());
    }

    public static AnswerBody of(Answer a) {
        return of(a, a.query());
    }

    /**
     * An answer to {@code asked}; {@code rewritten_query} is the query it was retrieved with when a follow-up was
     * rewritten from the conversation, else null.
     */
    public static AnswerBody of(Answer a, String asked) {
        return of(a, asked, null);
    }

    /** The same, as a turn of the conversation kept as {@code conversationId}. */
    public static AnswerBody of(Answer a, String asked, String conversationId) {
        return new AnswerBody(asked, a.answer(), a.mode(), a.note(), a.tookMs(), sources(a.sources()),
                degraded(a.degraded()), a.warnings(), a.grounding() == null ? null
                        : a.grounding().stream().map(SearchWire::grounded).toList(),
                Objects.equals(asked, a.query()) ? null : a.query(), conversationId, a.route() == null
                        ? null : new Route(a.route().intent(), a.route().scope(), a.route().reason(), a.route().by(),
                                a.route().topK(), a.route().neighbours(), a.route().style()));
    }

    public static List<Source> sources(List<AnswerSource> sources) {
        return sources == null ? List.of() : sources.stream().map(s -> new Source(s.number(), s.documentId(),
                s.title(), s.uri(), s.knowledgeBase(), s.passages().stream().map(p -> new Passage(p.chunkId(),
                        p.ordinal(), p.kind() == null ? null : p.kind().wireName(), p.headingPath(), p.text(),
                        p.hit(), p.location())).toList(), s.figures().stream().map(SearchWire::figure).toList()))
                .toList();
    }

    private static Grounded grounded(GroundedSentence g) {
        return new Grounded(g.sentence(), g.supportedBy(), g.cited(), g.supported());
    }

    public static List<Degraded> degraded(List<DegradedLeg> legs) {
        return legs == null ? List.of() : legs.stream().map(d -> new Degraded(d.modality().wireName(), d.reason()))
                .toList();
    }

    static List<String> names(List<Modality> modalities) {
        return modalities.stream().map(Modality::wireName).toList();
    }
}
