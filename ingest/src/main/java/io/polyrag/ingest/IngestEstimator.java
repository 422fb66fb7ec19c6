package io.polyrag.ingest;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Chunker;
import io.polyrag.core.port.EntityExtractor;
import io.polyrag.core.port.Parser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * What an ingest would cost, without writing anything or calling a model: the inputs are read, parsed and chunked,
 * the extractor and the contextualizer estimate their calls and tokens.
 */
final class IngestEstimator {
    private final Parser parser;
    private final Chunker chunker;
    /** Null when no graph or RDF store is on. */
    private final EntityExtractor extractor;
    /** Null when contextual retrieval is off. */
    private final Contextualizer contextualizer;
    private final long maxFileBytes;

    IngestEstimator(Parser parser, Chunker chunker, EntityExtractor extractor, Contextualizer contextualizer,
            long maxFileBytes) {
        this.parser = parser;
        this.chunker = chunker;
        this.extractor = extractor;
        this.contextualizer = contextualizer;
        this.maxFileBytes = maxFileBytes;
    }

    /**
     * What ingesting {@code inputs} into {@code kb} would cost (its stored name; null when not known: every chunk
     * context then counts as not cached), up to the input at which {@code stop} says so.
     */
    IngestEstimate estimate(List<IngestInput> inputs, String kb, BooleanSupplier stop) {
        long documents = 0;
        long chunks = 0;
        long tokens = 0;
        EntityExtractor.Estimate cost = EntityExtractor.Estimate.FREE;
        long[] context = new long[3];
        List<ItemError> errors = new ArrayList<>();
        for (IngestInput input : inputs) {
            // A cancel, a stop or a yield is not kept waiting for every file to be parsed (and OCR'd): what is
            // estimated so far is the estimate.
            if (stop.getAsBoolean()) {
                break;
            }
            try {
                if (input.size() > maxFileBytes) {
                    throw tooLarge(input, input.size(), maxFileBytes); // as listed, not read whole first
                }
                byte[] bytes = input.content().read(maxFileBytes + 1);
                if (bytes.length > maxFileBytes) {
                    throw tooLarge(input, bytes.length, maxFileBytes);
                }
                ParsedDocument parsed = parser.parse(new SourceItem(input.uri(), input.name(), bytes,
                        input.mediaType()));
                List<ChunkDraft> drafts = chunker.chunk(parsed);
                documents++;
                chunks += drafts.size();
                tokens += drafts.stream().mapToLong(ChunkDraft::tokenCount).sum();
                if (extractor != null) {
                    // What the ingest sends: a code chunk's graph text is empty, and it is never sent.
                    EntityExtractor.Estimate e = extractor.estimate(drafts.stream().map(d -> IngestPipeline.graphText(
                            d.kind(), d.text())).filter(t -> !t.isBlank()).toList());
                    cost = new EntityExtractor.Estimate(cost.calls() + e.calls(), cost.inputTokens() + e.inputTokens(),
                            cost.outputTokens() + e.outputTokens());
                }
                if (contextualizer != null) {
                    long[] c = contextualizer.estimate(kb == null ? "" : Ids.documentId(kb, input.uri()),
                            parsed.title(), drafts.stream().map(d -> IngestPipeline.graphText(d.kind(), d.text()))
                            .toList());
                    for (int i = 0; i < 3; i++) {
                        context[i] += c[i];
                    }
                }
            } catch (IOException | RuntimeException e) {
                errors.add(new ItemError(input.name(), e.getMessage()));
            } catch (OutOfMemoryError | StackOverflowError e) {
                // One hostile or huge file fails alone, as it does when it is ingested: it failed the whole job's
                // estimate (with the LLM extractor on, the upload job itself).
                errors.add(new ItemError(input.name(), input.name() + ": too large or too deeply nested to be "
                        + "parsed (" + e.getClass().getSimpleName() + ")"));
            }
        }
        return new IngestEstimate(documents, chunks, tokens, extractor != null ? extractor.id() : "none", cost.calls(),
                cost.inputTokens(), cost.outputTokens(), errors, context[0], context[1], context[2]);
    }

    /** Why a file whose parse threw an Error (out of memory, out of stack) failed. */
    static String unparseable(String name, Error e) {
        return name + (e instanceof StackOverflowError ? ": nested too deeply to be parsed"
                : ": too large to be parsed in this server's memory") + " (" + e.getClass().getSimpleName() + ")";
    }

    /** The error for an input over the size limit, naming the setting that raises it. */
    static InvalidInputException tooLarge(IngestInput input, long size, long maxFileBytes) {
        return new InvalidInputException(String.format(Locale.ROOT,
                "%s: too large (%.1f MiB; the limit is %.1f MiB): raise POLYRAG_INGEST_MAX_FILE_MB to ingest it",
                input.name(), size / 1048576.0, maxFileBytes / 1048576.0));
    }
}
