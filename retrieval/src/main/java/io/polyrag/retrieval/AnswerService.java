package io.polyrag.retrieval;

import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.port.Catalog;
import java.util.List;

/**
 * Search, then an answer with numbered sources: hits are grouped into sources (one number per document), widened
 * by their neighbouring chunks, and answered extractively. A language-model answer plugs in here later.
 */
public final class AnswerService {
    static final String EXTRACTIVE_NOTE = "No language model is configured: the answer quotes the sentences of the "
            + "sources that best match the question.";

    private final HybridSearcher searcher;
    private final SourceAssembler assembler;
    private final ExtractiveAnswerer extractive = new ExtractiveAnswerer();

    public AnswerService(HybridSearcher searcher, Catalog catalog) {
        this.searcher = searcher;
        this.assembler = new SourceAssembler(catalog);
    }

    /**
     * @param neighbours chunks added on either side of each hit, 0 to 5
     */
    public Answer answer(SearchRequest request, int neighbours) {
        if (neighbours < 0 || neighbours > 5) {
            throw new io.polyrag.core.InvalidInputException("neighbours must be between 0 and 5, was " + neighbours);
        }
        long start = System.nanoTime();
        SearchResponse found = searcher.search(request);
        List<AnswerSource> sources = assembler.assemble(found.hits(), neighbours);
        String text = extractive.answer(request.query(), sources);
        return new Answer(request.query(), text, "extractive", EXTRACTIVE_NOTE, sources,
                (System.nanoTime() - start) / 1_000_000, found.degraded());
    }
}
