package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One file a parser cannot get through (a stack overflow, memory) fails alone in an estimate, as in an ingest. */
class IngestEstimatorTest {

    @Test
    void a_file_that_overflows_the_parser_fails_alone() {
        Parser parser = new OneBlock();
        IngestEstimator estimator = new IngestEstimator(parser, new StructuredChunker(t -> t.split(" ").length, 300,
                30), null, null, 1 << 20);
        var e = estimator.estimate(List.of(IngestInput.ofText("a", "a.txt", "x"), IngestInput.ofText("b", "deep.xml",
                "x"), IngestInput.ofText("c", "c.txt", "x")), null, () -> false);
        assertThat(e.documents()).isEqualTo(2);
        assertThat(e.errors()).singleElement().satisfies(err -> assertThat(err.reason()).contains("StackOverflowError"));
    }

    /**
     * A cancel, a stop or a yield ends the estimate at the next file: a 10,000-file upload parsed (and OCR'd) every
     * file first, and its cancel waited for all of it.
     */
    @Test
    void an_estimate_stops_at_the_next_file_when_asked() {
        IngestEstimator estimator = new IngestEstimator(new OneBlock(), new StructuredChunker(
                t -> t.split(" ").length, 300, 30), null, null, 1 << 20);
        int[] asked = {0};
        var e = estimator.estimate(List.of(IngestInput.ofText("a", "a.txt", "one"), IngestInput.ofText("b", "b.txt",
                "two"), IngestInput.ofText("c", "c.txt", "three")), null, () -> ++asked[0] > 1);
        assertThat(e.documents()).as("the first file only").isEqualTo(1);
    }

    /** A file listed larger than an ingest takes is refused by its size, not read whole into memory first. */
    @Test
    void a_file_listed_too_large_is_refused_without_being_read() {
        IngestEstimator estimator = new IngestEstimator(null, new StructuredChunker(t -> t.split(" ").length, 300,
                30), null, null, 1 << 20);
        var e = estimator.estimate(List.of(new IngestInput("file:///big.log", "big.log", 2L << 20, null, () -> {
            throw new AssertionError("read whole although its listed size is over the limit");
        }, null)), null, () -> false);
        assertThat(e.documents()).isZero();
        assertThat(e.errors()).singleElement().satisfies(err -> assertThat(err.reason()).contains(
                "POLYRAG_INGEST_MAX_FILE_MB"));
    }

    /** A code chunk is never sent to the extractor (its graph text is empty): an estimate counted a call for each. */
    @Test
    void code_chunks_cost_no_extraction_calls() {
        Parser parser = new OneBlock(ChunkKind.CODE, "def f():\n    return 1", "text/x-python", "python");
        io.polyrag.core.port.EntityExtractor counting = new io.polyrag.core.port.EntityExtractor() {
            @Override
            public String id() {
                return "counting";
            }

            @Override
            public List<io.polyrag.core.model.Extraction> extract(List<String> texts, long tokenBudget) {
                return List.of();
            }

            @Override
            public Estimate estimate(List<String> texts) {
                return new Estimate(texts.size(), texts.size(), texts.size());
            }
        };
        IngestEstimator estimator = new IngestEstimator(parser, new StructuredChunker(t -> t.split(" ").length, 300,
                30), counting, null, 1 << 20);
        var e = estimator.estimate(List.of(IngestInput.ofText("a", "a.py", "x")), null, () -> false);
        assertThat(e.chunks()).isPositive();
        assertThat(e.extractionCalls()).isZero();
    }

    /** Every file one block of the same text; deep.xml overflows the stack. */
    private record OneBlock(ChunkKind kind, String text, String mediaType, String language) implements Parser {
        /** One sentence about lighthouses, as prose. */
        OneBlock() {
            this(ChunkKind.PROSE, "Lighthouses guide ships along the coast.", "text/plain", "");
        }

        @Override
        public ParsedDocument parse(SourceItem item) {
            if (item.name().equals("deep.xml")) {
                throw new StackOverflowError();
            }
            return new ParsedDocument(item.name(), text, List.of(new io.polyrag.core.model.Block(kind, text,
                    List.of(), 0, text.length(), language)), mediaType);
        }

        @Override
        public Set<String> mediaTypes() {
            return Set.of(mediaType);
        }

        @Override
        public boolean acceptsName(String fileName) {
            return true;
        }
    }
}
