package io.polyrag.core.port;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import java.util.List;
import java.util.Set;

/**
 * Extracts text and structure from a file's bytes.
 *
 * <p>Detects the type from the content and name when the item declares none. Input that cannot be parsed (an
 * unsupported type, binary data posing as text, a corrupt file) fails with an
 * {@link io.polyrag.core.InvalidInputException} whose message names the file and the reason; nothing else escapes.
 * Stateless and safe for concurrent use.
 */
public interface Parser {

    /** Parses one item. */
    ParsedDocument parse(SourceItem item);

    /**
     * The links of an HTML page as written (for a crawler to follow), whether or not it holds text to index; empty
     * for other types and for content that cannot be read.
     */
    default List<String> links(SourceItem item) {
        try {
            return parse(item).links();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** Media types this parser accepts. */
    Set<String> mediaTypes();

    /** Whether a file with this name looks parseable, judged by its name alone (for directory walks). */
    boolean acceptsName(String fileName);

    /** File extensions (lower case, no dot) a directory walk picks up. */
    default Set<String> extensions() {
        return Set.of();
    }

    /** Whether images and scanned pages can be read (OCR is installed). */
    default boolean ocr() {
        return false;
    }

    /**
     * The figures of a parsed file: embedded images and drawn charts with their captions, page or slide. Never
     * throws: a figure that cannot be read is left out and named in a warning, and the file's text is indexed
     * whatever happens here.
     *
     * @param item the file, as given to {@link #parse}
     * @param mediaType the type {@link #parse} read it as
     * @param limits how much to take
     */
    default Figures figures(SourceItem item, String mediaType, FigureLimits limits) {
        return Figures.NONE;
    }

    /** Whether {@link #figures} looks for figures in files of this media type. */
    default boolean hasFigures(String mediaType) {
        return false;
    }

    /**
     * How much figure extraction may take from one file.
     *
     * @param mode auto, force or skip
     * @param maxCount most figures
     * @param maxBytes most image bytes, over all its figures
     * @param timeoutMs longest the extraction may take; what was found by then is kept, with a warning
     */
    record FigureLimits(FigureMode mode, int maxCount, long maxBytes, long timeoutMs) {
    }

    /**
     * Figures found in one file, and what was left out, in users' words.
     *
     * @param cutShort extraction stopped before the end of the file (out of time, or failed): another try may find
     *     more, unlike a file that simply has more figures than the limits keep
     */
    record Figures(List<ExtractedFigure> figures, List<String> warnings,
            boolean cutShort) {
        public static final Figures NONE = new Figures(List.of(), List.of());

        public Figures {
            figures = List.copyOf(figures);
            warnings = List.copyOf(warnings);
        }

        public Figures(List<ExtractedFigure> figures,
                List<String> warnings) {
            this(figures, warnings, false);
        }
    }
}
