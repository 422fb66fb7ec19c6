package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plain text, Markdown and HTML. The type is the declared media type when there is one, else the file extension,
 * else sniffed from the content (an HTML document announces itself). Binary content is refused whatever the name
 * says, and so is a document with no text.
 */
public final class TextFormatsParser implements Parser {
    static final String TEXT = "text/plain";
    static final String MARKDOWN = "text/markdown";
    static final String HTML = "text/html";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("txt", TEXT), Map.entry("text", TEXT), Map.entry("log", TEXT), Map.entry("rst", TEXT),
            Map.entry("adoc", TEXT), Map.entry("md", MARKDOWN), Map.entry("markdown", MARKDOWN),
            Map.entry("mdown", MARKDOWN), Map.entry("mkd", MARKDOWN), Map.entry("html", HTML),
            Map.entry("htm", HTML), Map.entry("xhtml", HTML));

    private final long maxChars;

    /** A parser with no limit on the text one file may hold (tests, and callers that judged it already). */
    public TextFormatsParser() {
        this(Long.MAX_VALUE);
    }

    /** @param maxChars most characters of text one file may hold; more is refused before it is parsed */
    public TextFormatsParser(long maxChars) {
        this.maxChars = maxChars;
    }

    @Override
    public ParsedDocument parse(SourceItem item) {
        String type = detect(item);
        String text = withinLimit(TextDecoder.decode(item.content(), item.name()), item.name(), maxChars);
        String fallbackTitle = stem(item.name());
        ParsedDocument doc = switch (type) {
            case MARKDOWN -> MarkdownParser.parse(text, fallbackTitle);
            case HTML -> HtmlParser.parse(text, fallbackTitle);
            default -> PlainTextParser.parse(text, fallbackTitle);
        };
        if (doc.blocks().isEmpty()) {
            throw new InvalidInputException(item.name() + ": no text to index (the file is empty or holds only "
                    + "markup)");
        }
        return doc;
    }

    /** The text itself, or a refusal naming the setting when it holds more than {@code maxChars} characters. */
    static String withinLimit(String text, String name, long maxChars) {
        if (text.length() > maxChars) {
            throw new InvalidInputException(name + ": holds more than " + maxChars + " characters of text "
                    + "(raise POLYRAG_INGEST_MAX_TEXT_MB to ingest it)");
        }
        return text;
    }

    @Override
    public List<String> links(SourceItem item) {
        try {
            return detect(item).equals(HTML) ? HtmlParser.links(TextDecoder.decode(item.content(), item.name()),
                    item.uri() == null ? "" : item.uri()) : List.of();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** Whether a declared type or a name's extension says how to read a file here (else its content is asked). */
    static boolean knows(String declared, String ext) {
        String d = declared == null ? "" : declared.toLowerCase(Locale.ROOT).split(";")[0].strip();
        return d.equals(TEXT) || d.equals(MARKDOWN) || d.equals(HTML) || BY_EXTENSION.containsKey(ext);
    }

    /** The media type to parse as; unknown types fail with the list of supported ones. */
    String detect(SourceItem item) {
        String declared = item.mediaType() == null ? "" : item.mediaType().toLowerCase(Locale.ROOT).split(";")[0].strip();
        if (mediaTypes().contains(declared)) {
            return declared;
        }
        String ext = extension(item.name());
        if (BY_EXTENSION.containsKey(ext)) {
            return BY_EXTENSION.get(ext);
        }
        if (looksLikeHtml(item.content())) {
            return HTML;
        }
        if (ext.isEmpty() && (declared.isEmpty() || declared.equals("application/octet-stream"))) {
            return TEXT;
        }
        throw new InvalidInputException(item.name() + ": unsupported type (" + (declared.isEmpty() ? "." + ext
                : declared) + "); supported are plain text, Markdown and HTML (" + String.join(", ",
                        BY_EXTENSION.keySet().stream().sorted().toList()) + ")");
    }

    private static boolean looksLikeHtml(byte[] content) {
        String head = new String(content, 0, Math.min(content.length, 512), StandardCharsets.ISO_8859_1)
                .stripLeading().toLowerCase(Locale.ROOT);
        return head.startsWith("<!doctype html") || head.startsWith("<html");
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of(TEXT, MARKDOWN, HTML);
    }

    @Override
    public Set<String> extensions() {
        return new TreeSet<>(BY_EXTENSION.keySet());
    }

    @Override
    public boolean acceptsName(String fileName) {
        return BY_EXTENSION.containsKey(extension(fileName));
    }

    static String extension(String name) {
        String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
        int dot = base.lastIndexOf('.');
        return dot <= 0 ? "" : base.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    static String stem(String name) {
        String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
        int dot = base.lastIndexOf('.');
        return dot <= 0 ? base : base.substring(0, dot);
    }
}
