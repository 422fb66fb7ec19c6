package io.polyrag.retrieval;

import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.PolyragException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.LlmClient;
import java.util.List;
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
    static final String EXTRACTIVE_NOTE = "No language model is configured: the answer quotes the sentences of the "
            + "sources that best match the question.";

    private final HybridSearcher searcher;
    private final SourceAssembler assembler;
    private final ExtractiveAnswerer extractive;
    private final LlmClient llm;
    private final int maxTokens;

    /**
     * @param llm the model that writes answers, or null for extractive answers
     * @param maxTokens the longest answer the model may write
     */
    public AnswerService(HybridSearcher searcher, Catalog catalog, LlmClient llm, int maxTokens) {
        this(searcher, catalog, llm, maxTokens, null);
    }

    /** @param embedder scores the sentences of an extractive answer by meaning too; null for words only */
    public AnswerService(HybridSearcher searcher, Catalog catalog, LlmClient llm, int maxTokens,
            io.polyrag.core.port.Embedder embedder) {
        this.extractive = new ExtractiveAnswerer(embedder);
        this.searcher = searcher;
        this.assembler = new SourceAssembler(catalog);
        this.llm = llm;
        this.maxTokens = maxTokens;
    }

    /**
     * @param neighbours chunks added on either side of each hit, 0 to 5
     * @param grounding whether to add the grounding report
     * @param onToken receives the answer's text as it is written (once, whole, for an extractive answer)
     */
    public Answer answer(SearchRequest request, int neighbours, boolean grounding, Consumer<String> onToken) {
        if (neighbours < 0 || neighbours > 5) {
            throw new InvalidInputException("neighbours must be between 0 and 5, was " + neighbours);
        }
        long start = System.nanoTime();
        SearchResponse found = searcher.search(request);
        if (!found.degraded().isEmpty() && found.degraded().size() == found.modalities().size()) {
            throw new UnavailableException("no retriever answered: " + found.degraded().stream()
                    .map(d -> d.modality() + " (" + d.reason() + ")").collect(Collectors.joining(", ")));
        }
        List<AnswerSource> sources = assembler.assemble(found.hits(), neighbours);
        String text;
        String mode;
        String note;
        if (llm == null || sources.isEmpty()) {
            text = extractive.answer(request.query(), sources);
            onToken.accept(text);
            mode = "extractive";
            note = llm == null ? EXTRACTIVE_NOTE : "Nothing was found to answer from.";
            if (text.isEmpty() && !sources.isEmpty()) {
                note = NOT_COVERED;
            }
        } else {
            text = generate(request.query(), sources, onToken);
            mode = "generated";
            note = "Written by " + llm.id() + " from the numbered sources.";
        }
        return new Answer(request.query(), text, mode, note, sources, (System.nanoTime() - start) / 1_000_000,
                found.degraded(), grounding ? Grounding.report(text, sources) : null);
    }

    public Answer answer(SearchRequest request, int neighbours) {
        return answer(request, neighbours, false, t -> { });
    }

    private String generate(String question, List<AnswerSource> sources, Consumer<String> onToken) {
        try {
            return llm.stream(AnswerPrompt.build(question, sources, maxTokens), onToken).text();
        } catch (PolyragException e) {
            throw new AnswerUnavailableException("the answer could not be written: " + e.getMessage(), sources, e);
        }
    }
}
