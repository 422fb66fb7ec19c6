package io.polyrag.retrieval;

import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerRoute;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.LlmClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Search, then an answer with numbered sources: hits are grouped into sources (one number per document), widened
 * by their neighbouring chunks, and answered by the language model when one is configured, else extractively.
 *
 * <p>If every retriever failed there is nothing to answer from: {@link UnavailableException}. If the model fails,
 * {@link AnswerUnavailableException} carries the provider's reason and the sources.
 */
public final class AnswerService {
    static final String NOT_COVERED = "No sentence of the sources found shares a word with the question, so none is "
            + "quoted: they do not seem to cover it.";
    static final String NOTHING_FOUND = "Nothing was found to answer from.";
    static final String EXTRACTIVE_NOTE = "No language model is configured: the answer quotes the sentences of the "
            + "sources that best match the question.";

    private final HybridSearcher searcher;
    private final SourceAssembler assembler;
    private final ExtractiveAnswerer extractive;
    private final LlmClient llm;
    private final int maxTokens;
    private final Catalog catalog;
    private volatile IntentRouter router;
    /** The part of the model's context a generated answer's sources may take, in tokens (estimated). */
    private volatile int contextTokens = 16_000;
    /** Chunks of a document a summary reads, from its start. */
    static final int SUMMARY_CHUNKS = 12;
    /** Documents an overview of the collection names. */
    static final int OVERVIEW_DOCUMENTS = 10;

    /**
     * @param llm the model that writes answers, or null for extractive answers
     * @param maxTokens the longest answer the model may write
     */
    public AnswerService(HybridSearcher searcher, Catalog catalog, LlmClient llm, int maxTokens) {
        this(searcher, catalog, llm, maxTokens, null);
    }

    /** @param embedder scores the sentences of an extractive answer by meaning too; null for words only */
    public AnswerService(HybridSearcher searcher, Catalog catalog, LlmClient llm, int maxTokens,
            Embedder embedder) {
        this.extractive = new ExtractiveAnswerer(embedder);
        this.searcher = searcher;
        this.assembler = new SourceAssembler(catalog);
        this.catalog = catalog;
        this.llm = llm;
        this.maxTokens = maxTokens;
        this.router = new IntentRouter(llm);
    }

    /**
     * The model the intent router asks: a best-effort step with an offline fallback, so one called once, not with the
     * answer's retries (a provider in trouble held a routed question for minutes before it fell back).
     */
    public void routeWith(LlmClient quick) {
        this.router = new IntentRouter(quick);
    }

    /**
     * @param neighbours chunks added on either side of each hit, 0 to 5
     * @param grounding whether to add the grounding report
     * @param onToken receives the answer's text as it is written (once, whole, for an extractive answer)
     */
    public Answer answer(SearchRequest request, int neighbours, boolean grounding, Consumer<String> onToken) {
        return answer(request, neighbours, grounding, onToken, false);
    }

    /**
     * Like {@link #answer(SearchRequest, int, boolean, Consumer)}; with {@code route}, the intent router decides
     * first what the question asks for ({@link IntentRouter}): small talk and out-of-scope questions are answered
     * directly without searching; a summary reads the best-matching document from its start (or names each
     * document of the collection); a comparison or a list searches wider and lays the answer out for it.
     */
    /** Refuses an answer's {@code neighbours} outside 0 to 5. */
    public static void checkNeighbours(int neighbours) {
        if (neighbours < 0 || neighbours > 5) {
            throw new InvalidInputException("neighbours must be between 0 and 5, was " + neighbours);
        }
    }

    // style: the answer's route in order: intent, search, prompt, model or extractive fallback
    public Answer answer(SearchRequest request, int neighbours, boolean grounding, Consumer<String> onToken,
            boolean route) {
        checkNeighbours(neighbours);
        long start = System.nanoTime();
        // A question the search would refuse (empty, oversized) is refused before the router shows it to a model.
        searcher.validate(request);
        IntentRouter.Route routed = route ? router.route(request.query()) : null;
        if (routed != null && routed.intent().direct()) {
            onToken.accept(routed.reply());
            return new Answer(request.query(), routed.reply(), "direct", "Answered without searching the documents: "
                    + routed.reason() + ".", List.of(), (System.nanoTime() - start) / 1_000_000, List.of(),
                    grounding ? List.of() : null, route(routed, 0, 0, "direct"));
        }
        IntentRouter.Intent intent = routed == null ? IntentRouter.Intent.LOOKUP : routed.intent();
        ExtractiveAnswerer.Style style = switch (intent) {
            case SUMMARY -> routed.collection() ? ExtractiveAnswerer.Style.OVERVIEW : ExtractiveAnswerer.Style.SUMMARY;
            case COMPARISON -> ExtractiveAnswerer.Style.COMPARISON;
            case LIST -> ExtractiveAnswerer.Style.LIST;
            default -> ExtractiveAnswerer.Style.ANSWER;
        };
        SearchRequest r = switch (intent) {
            // Enough hits to find the document meant; the summary then reads it from its start, so reranking the
            // hits (a model's time) changes nothing unless the request asked for it.
            case SUMMARY -> unranked(request.withTopK(Math.min(request.topK(), 5)));
            // Both sides, or every item, rarely sit in the few best hits.
            // Never past the server's top-k limit: the question did not ask for more than it allows.
            case COMPARISON -> request.withTopK(Math.min(searcher.maxTopK(), Math.max(request.topK(), 10)));
            case LIST -> request.withTopK(Math.min(searcher.maxTopK(), Math.max(request.topK(), 20)));
            default -> request;
        };
        int around = intent == IntentRouter.Intent.COMPARISON ? Math.max(neighbours, 1) : neighbours;
        List<AnswerSource> sources;
        List<DegradedLeg> degraded;
        List<String> warnings = new ArrayList<>();
        if (style == ExtractiveAnswerer.Style.OVERVIEW) {
            sources = overview(request, warnings);
            degraded = List.of();
        } else {
            SearchResponse found = searcher.search(r);
            if (!found.degraded().isEmpty() && found.degraded().size() == found.modalities().size()) {
                throw new UnavailableException("no retriever answered: " + found.degraded().stream()
                        .map(d -> d.modality() + " (" + d.reason() + ")").collect(Collectors.joining(", ")));
            }
            warnings.addAll(found.warnings());
            sources = style == ExtractiveAnswerer.Style.SUMMARY ? document(found.hits(), warnings)
                    : assembler.assemble(found.hits(), around);
            degraded = found.degraded();
        }
        String text;
        String mode;
        String note;
        if (llm == null || sources.isEmpty()) {
            text = extractive.answer(request.query(), sources, style);
            onToken.accept(text);
            mode = "extractive";
            // Nothing found says so with a model or without: the extractive note spoke of quoting sources none of.
            note = sources.isEmpty() ? NOTHING_FOUND : text.isEmpty() ? NOT_COVERED : EXTRACTIVE_NOTE;
        } else {
            sources = AnswerPrompt.fitted(sources, contextTokens);
            LlmClient.Response written = generate(request.query(), sources, onToken, style);
            text = written.text();
            mode = "generated";
            // A sentence cut in half read as a whole answer: the note says where it stopped and why.
            note = "Written by " + llm.id() + " from the numbered sources." + (written.cut() ? " " + cutNote()
                    : "") + (written.stoppedBy() == null ? "" : " " + Answer.FILTERED + " (" + written.stoppedBy()
                    + "): the answer may be incomplete.");
            if (text.isBlank()) {
                // A reasoning model can spend its whole allowance thinking and write nothing: that was a 200 with an
                // empty answer, passed off as written. The sources' best sentences are quoted instead, saying why.
                text = extractive.answer(request.query(), sources, style);
                onToken.accept(text);
                mode = "extractive";
                note = llm.id() + " wrote no text (a reasoning model can spend its whole allowance, "
                        + "POLYRAG_LLM_MAX_ANSWER_TOKENS, before writing): " + (text.isEmpty() ? NOT_COVERED
                        : "the answer quotes the sentences of the sources that best match the question.");
            }
        }
        return new Answer(request.query(), text, mode, note, sources, (System.nanoTime() - start) / 1_000_000,
                degraded, grounding ? Grounding.report(text, sources) : null, routed == null ? null
                        : route(routed, style == ExtractiveAnswerer.Style.OVERVIEW ? 0 : r.topK(), style
                                == ExtractiveAnswerer.Style.SUMMARY ? 0 : around, style.name().toLowerCase(
                                        Locale.ROOT)), warnings);
    }

    private static SearchRequest unranked(SearchRequest r) {
        SearchRequest.Tuning t = r.tuning();
        return t.rerank() != null ? r : new SearchRequest(r.query(), r.topK(), r.knowledgeBases(), r.modalities(),
                r.fusion(), r.documentIds(), r.category(), t.withRerank(false));
    }

    private static AnswerRoute route(IntentRouter.Route r, int topK, int neighbours,
            String style) {
        return new AnswerRoute(r.intent().wireName(), r.intent() != IntentRouter.Intent.SUMMARY
                ? null : r.collection() ? "collection" : "document", r.reason(), r.by(), topK, neighbours, style);
    }

    /** The best hit's document read from its start: its first {@value #SUMMARY_CHUNKS} chunks, in order. */
    private List<AnswerSource> document(List<SearchHit> hits, List<String> warnings) {
        if (hits.isEmpty()) {
            return List.of();
        }
        SearchHit best = hits.getFirst();
        List<AnswerSource.Passage> passages = new ArrayList<>(catalog.chunks(best.documentId(), best.version(), 0,
                SUMMARY_CHUNKS).stream().filter(c -> c.kind() != ChunkKind.FIGURE)
                .map(c -> new AnswerSource.Passage(c.id(), c.ordinal(), c.kind(), c.headingPath(), c.text(), true,
                        c.location())).toList());
        if (passages.size() > SUMMARY_CHUNKS) {
            // A longer document is read from its start only: said, and the passage the search found added when it
            // lies past that start (a summary of "the backup procedure" never reached the section about it).
            passages.removeLast();
            if (best.ordinal() >= SUMMARY_CHUNKS) {
                passages.add(new AnswerSource.Passage(best.chunkId(), best.ordinal(), best.kind(), best.headingPath(),
                        best.text(), true, best.location()));
            }
            warnings.add("'" + best.title() + "' is longer than the summary reads: " + (best.ordinal() >= SUMMARY_CHUNKS
                    ? "the passage the search found and its first passages" : "its first passages") + " (at most "
                    + SUMMARY_CHUNKS + ", as many as the model's context holds)");
        }
        return passages.isEmpty() ? List.of() : List.of(new AnswerSource(1, best.documentId(), best.title(),
                best.uri(), best.knowledgeBase(), passages, List.of()));
    }

    /** The documents searched, by uri: each one's first chunk, up to {@value #OVERVIEW_DOCUMENTS}. */
    private List<AnswerSource> overview(SearchRequest request, List<String> warnings) {
        List<AnswerSource> out = new ArrayList<>();
        List<DocumentInfo> documents = catalog.documents(request.scope(), 0, OVERVIEW_DOCUMENTS + 1);
        if (documents.size() > OVERVIEW_DOCUMENTS) {
            // Named as if it were everything: the overview lists the first few only.
            warnings.add("the collection holds more than " + OVERVIEW_DOCUMENTS + " documents: the overview names "
                    + "the first " + OVERVIEW_DOCUMENTS + " by address (GET /v1/documents lists them all)");
            documents = documents.subList(0, OVERVIEW_DOCUMENTS);
        }
        for (DocumentInfo d : documents) {
            List<AnswerSource.Passage> first = catalog.chunks(d.id(), d.visibleVersion(), 0, 0).stream()
                    .map(c -> new AnswerSource.Passage(c.id(), c.ordinal(), c.kind(), c.headingPath(), c.text(),
                            true, c.location())).toList();
            if (!first.isEmpty()) {
                out.add(new AnswerSource(out.size() + 1, d.id(), d.title(), d.uri(), d.knowledgeBase(), first,
                        List.of()));
            }
        }
        return out;
    }

    /** Sets the part of the model's context a generated answer's sources may take ({@code llm.context.tokens}). */
    public void contextTokens(int tokens) {
        this.contextTokens = tokens;
    }

    public Answer answer(SearchRequest request, int neighbours) {
        return answer(request, neighbours, false, t -> { });
    }

    private String cutNote() {
        return Answer.CUT + " (POLYRAG_LLM_MAX_ANSWER_TOKENS, " + maxTokens + " tokens): raise it for longer "
                + "answers.";
    }

    private LlmClient.Response generate(String question, List<AnswerSource> sources, Consumer<String> onToken,
            ExtractiveAnswerer.Style style) {
        try {
            return llm.stream(AnswerPrompt.build(question, sources, maxTokens, style), onToken);
        } catch (PolyragException e) {
            // Whole in the log: the problem a tenant gets leaves an operator's address out.
            System.getLogger(AnswerService.class.getName()).log(System.Logger.Level.WARNING, "the answer could not "
                    + "be written", e);
            throw new AnswerUnavailableException("the answer could not be written: " + OutboundException.shown(e),
                    sources, e);
        }
    }
}
