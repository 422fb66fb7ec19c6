package io.polyrag.parsers;

import io.polyrag.core.model.ParsedDocument;

/** Plain text: paragraphs are separated by blank lines; no headings. */
final class PlainTextParser {
    private PlainTextParser() {
    }

    static ParsedDocument parse(String text, String title) {
        DocumentBuilder doc = new DocumentBuilder();
        for (String para : text.replace("\r\n", "\n").replace('\r', '\n').split("\n\\s*\n")) {
            doc.prose(para);
        }
        return doc.build(title, "text/plain");
    }
}
