package io.polyrag.parsers;

import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;

/** Tika's parse context as OCR needs it (apart: polyrag's own {@code Parser} port has the same simple name). */
final class OcrContext {
    private OcrContext() {
    }

    /**
     * The parser a scanned PDF page is rendered to and OCR'd by: Tika's PDF parser asks the context for it, and Tika
     * puts itself there only when it also parses embedded documents, which polyrag never lets it.
     */
    static void ocrWith(ParseContext context, AutoDetectParser tika) {
        context.set(Parser.class, tika);
    }
}
