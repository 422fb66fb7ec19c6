package io.polyrag.parsers;

import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import io.polyrag.testing.ParserContract;
import org.junit.jupiter.api.Nested;

class TextFormatsParserContractTest {
    @Nested
    class Markdown extends ParserContract {
        @Override
        protected Parser parser() {
            return new TextFormatsParser();
        }

        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.md", "a.md", utf8("# Title\n\nSome " + phrase + " here.\n"), null);
        }
    }

    @Nested
    class Html extends ParserContract {
        @Override
        protected Parser parser() {
            return new TextFormatsParser();
        }

        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.html", "a.html", utf8("<html><body><h1>T</h1><p>" + phrase
                    + "</p></body></html>"), null);
        }
    }

    @Nested
    class PlainText extends ParserContract {
        @Override
        protected Parser parser() {
            return new TextFormatsParser();
        }

        @Override
        protected SourceItem sample(String phrase) {
            return new SourceItem("file:///a.txt", "a.txt", utf8("Line with " + phrase + ".\n\nSecond para."), null);
        }
    }
}
