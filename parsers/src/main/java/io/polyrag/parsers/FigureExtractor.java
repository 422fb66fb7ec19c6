package io.polyrag.parsers;

import io.polyrag.core.model.Figure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.port.Parser;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the figures out of PDFs (embedded images; drawn charts, rendered to PNG) and Office files (pictures in
 * PowerPoint and Word), each with its caption, page or slide, and the text inside it.
 *
 * <p>What is left out on purpose: images smaller than {@value #MIN_SIDE_PX} pixels or {@value #MIN_SIDE_PT} points
 * on a side (icons, rules), the same image on three or more pages or slides (logos, letterheads), images covering
 * most of a page (a scan: its text is read by OCR, not kept as a figure), and images over {@value #MAX_PIXELS}
 * pixels (left out with a warning; up to that they are scaled down to about {@value #KEEP_PIXELS} pixels). Every
 * failure is local: a figure that cannot be read is skipped and counted in a warning.
 *
 * <p>One class per format does the reading ({@link PdfFigures} with {@link PdfPageScan}, {@link PptxFigures},
 * {@link DocxFigures}); {@link FigureRun} keeps one file's limits and counts, {@link FigureImage} decodes and
 * re-encodes, {@link TextLine} finds captions.
 */
final class FigureExtractor {
    static final int MIN_SIDE_PX = 48;
    static final int MIN_SIDE_PT = 36;
    static final long MAX_PIXELS = 100_000_000L;
    static final long KEEP_PIXELS = 4_000_000L;
    /** Rendering scale for drawn figures: 2 × 72 = 144 dpi. */
    static final float RENDER_SCALE = 2f;
    static final int MAX_CAPTION = 600;
    static final int MAX_TEXT = 1500;
    static final int OCR_MAX = 20;
    /** A caption's label: "Figure 3", "Fig. 2a", "Table 1.2", "Chart 4". */
    static final Pattern LABEL = Pattern.compile("^\\s*((?:figure|fig\\.?|table|chart|diagram|graph|exhibit|plate"
            + "|illustration|image|photo)\\s*[0-9]+[a-z]?(?:[.\\-][0-9]+)?)\\b", Pattern.CASE_INSENSITIVE);

    private final Function<byte[], String> ocr;

    /** @param ocr reads the text of a PNG or JPEG image, or null when OCR is not installed */
    FigureExtractor(Function<byte[], String> ocr) {
        this.ocr = ocr;
    }

    static boolean handles(String mediaType) {
        return mediaType.equals("application/pdf") || mediaType.equals(PPTX) || mediaType.equals(DOCX);
    }

    static final String PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
    static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    Parser.Figures extract(byte[] bytes, String mediaType, Parser.FigureLimits limits) {
        if (limits.mode() == FigureMode.SKIP || limits.maxCount() <= 0 || !handles(mediaType)) {
            return Parser.Figures.NONE;
        }
        FigureRun run = new FigureRun(limits, ocr);
        try {
            switch (mediaType) {
                case "application/pdf" -> PdfFigures.extract(bytes, run);
                case PPTX -> PptxFigures.extract(bytes, run);
                default -> DocxFigures.extract(bytes, run);
            }
        } catch (IOException | RuntimeException e) {
            run.warnings.add("figures: the file's images could not be read (" + e.getClass().getSimpleName()
                    + "); its text is indexed without figures");
            run.figures.clear();
            run.failed = true;
        }
        run.summarise();
        return new Parser.Figures(run.figures, run.warnings, run.failed || run.timedOut);
    }

    /** Whether two boxes (lines may have no width or height) come within {@code gap} points of each other. */
    static boolean near(Rectangle2D a, Rectangle2D b, double gap) {
        return a.getMinX() - gap <= b.getMaxX() && b.getMinX() - gap <= a.getMaxX() && a.getMinY() - gap <= b.getMaxY()
                && b.getMinY() - gap <= a.getMaxY();
    }

    static Figure.Box box(Rectangle2D r) {
        return new Figure.Box(r.getX(), r.getY(), r.getWidth(), r.getHeight());
    }

    /** The label a caption starts with ("Figure 3"), normalised, or empty. */
    static String label(String caption) {
        Matcher m = LABEL.matcher(caption == null ? "" : caption);
        return m.find() ? m.group(1).replaceAll("\\s+", " ").strip() : "";
    }

    static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max).strip() + "…";
    }
}
