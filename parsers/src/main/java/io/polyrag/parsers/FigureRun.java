package io.polyrag.parsers;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.port.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** What one file's figure extraction has taken and left out, against its limits. */
final class FigureRun {
    final Parser.FigureLimits limits;
    private final Function<byte[], String> ocr;
    final long deadline;
    final List<ExtractedFigure> figures = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    long bytes;
    int overCount;
    int overBytes;
    int unreadable;
    int tooLarge;
    int ocrDone;
    boolean timedOut;
    boolean failed;

    FigureRun(Parser.FigureLimits limits, Function<byte[], String> ocr) {
        this.limits = limits;
        this.ocr = ocr;
        this.deadline = System.nanoTime() + Math.max(1, limits.timeoutMs()) * 1_000_000L;
    }

    boolean late() {
        if (!timedOut && System.nanoTime() > deadline) {
            timedOut = true;
        }
        return timedOut;
    }

    boolean full() {
        return figures.size() >= limits.maxCount();
    }

    /** Keeps a figure if the limits allow; false when they did not. */
    boolean keep(ExtractedFigure f) {
        if (full()) {
            overCount++;
            return false;
        }
        if (bytes + f.bytes().length > limits.maxBytes()) {
            overBytes++;
            return false;
        }
        bytes += f.bytes().length;
        figures.add(f);
        return true;
    }

    String ocr(FigureImage image) {
        if (ocr == null || ocrDone >= FigureExtractor.OCR_MAX || image.width() < 100 || image.height() < 40 || late()) {
            return "";
        }
        ocrDone++;
        try {
            return FigureExtractor.clip(ocr.apply(image.bytes()).replaceAll("\\s+", " ").strip(), FigureExtractor.MAX_TEXT);
        } catch (RuntimeException e) {
            return "";
        }
    }

    void summarise() {
        if (overCount > 0) {
            warnings.add("figures: " + overCount + " more were left out: at most " + limits.maxCount()
                    + " are kept from one file (POLYRAG_FIGURES_FILE_MAX, or the ingest's POLYRAG_FIGURES_INGEST_MAX)");
        }
        if (overBytes > 0) {
            warnings.add("figures: " + overBytes + " were left out: their images exceed the "
                    + (limits.maxBytes() >> 20) + " MiB kept from one file (POLYRAG_FIGURES_FILE_MAX_MB, or the "
                    + "ingest's POLYRAG_FIGURES_INGEST_MAX_MB)");
        }
        if (tooLarge > 0) {
            warnings.add("figures: " + tooLarge + " images larger than " + FigureExtractor.MAX_PIXELS / 1_000_000
                    + " megapixels were left out");
        }
        if (unreadable > 0) {
            warnings.add("figures: " + unreadable + " images could not be decoded (corrupt or an unsupported "
                    + "encoding) and were left out");
        }
        if (timedOut) {
            warnings.add("figures: extraction stopped after " + limits.timeoutMs() / 1000 + " s (the parse "
                    + "time limit, POLYRAG_INGEST_PARSE_TIMEOUT_SECONDS); the figures found before are kept");
        }
    }
}
