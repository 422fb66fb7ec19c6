package io.polyrag.app.api;

import io.polyrag.core.model.KnowledgeBase;

/**
 * Ingest one text given inline.
 *
 * @param text the content
 * @param title its title, or null (then its first line, or an HTML page's own title)
 * @param uri its identity; null derives one from the content, so the same text is the same document
 * @param format {@code text}, {@code markdown} or {@code html}; null means text
 * @param knowledgeBase target knowledge base; null for the default
 * @param skipGraph index without extracting entities and relations for the graph and RDF stores
 */
public record TextIngest(String text, String title, String uri, String format, KnowledgeBase knowledgeBase,
        boolean skipGraph) {
    public TextIngest {
        knowledgeBase = knowledgeBase == null ? KnowledgeBase.DEFAULT : knowledgeBase;
    }

    public TextIngest(String text, String title, String uri, String format, KnowledgeBase knowledgeBase) {
        this(text, title, uri, format, knowledgeBase, false);
    }

    /** A plain text into the default knowledge base. */
    public static TextIngest of(String text, String title) {
        return new TextIngest(text, title, null, null, null, false);
    }
}
