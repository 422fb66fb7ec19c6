package io.polyrag.parsers;

import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import io.polyrag.testing.DocumentFixtures;
import io.polyrag.testing.ParserContract;
import java.util.List;
import org.junit.jupiter.api.Nested;

/** The parser contract for each family of formats the documents parser handles. */
class DocumentsParserContractTest {
    private static final DocumentsParser PARSER = new DocumentsParser(64L << 20, 60_000);

    abstract static class Format extends ParserContract {
        @Override
        protected Parser parser() {
            return PARSER;
        }
    }

    @Nested
    class Pdf extends Format {
        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.pdf", "a.pdf", DocumentFixtures.pdf(List.of("Cover", phrase)), null);
        }
    }

    @Nested
    class Word extends Format {
        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.docx", "a.docx", DocumentFixtures.docx("Title", phrase,
                    List.of(List.of("k", "v"), List.of("a", "1"))), null);
        }
    }

    @Nested
    class Slides extends Format {
        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.pptx", "a.pptx", DocumentFixtures.pptx(List.of("Intro", phrase)), null);
        }
    }

    @Nested
    class Spreadsheet extends Format {
        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.xlsx", "a.xlsx", DocumentFixtures.xlsx("Data", List.of("Name", "A", "B",
                    "Product"), List.of(List.of(phrase, 2, 3))), null);
        }
    }

    @Nested
    class Code extends Format {
        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.go", "a.go", utf8("package main\n\n// " + phrase + "\nfunc main() {}\n"),
                    null);
        }
    }
}
