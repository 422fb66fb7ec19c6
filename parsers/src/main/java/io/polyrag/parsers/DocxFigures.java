package io.polyrag.parsers;

import io.polyrag.core.model.ExtractedFigure;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableCell;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;

/** The pictures of a Word file, each with its caption (a caption paragraph or its alt text) and OCR text. */
final class DocxFigures {
    private DocxFigures() {
    }

    static void extract(byte[] bytes, FigureRun run) throws IOException {
        try (var doc = new XWPFDocument(new ByteArrayInputStream(bytes))) {
            List<XWPFParagraph> paragraphs = new ArrayList<>();
            paragraphs(doc.getBodyElements(), paragraphs, 0);
            Map<String, Integer> seen = new HashMap<>();
            for (var p : paragraphs) {
                for (var r : p.getRuns()) {
                    for (var pic : r.getEmbeddedPictures()) {
                        if (pic.getPictureData() != null) {
                            seen.merge(pic.getPictureData().getPackagePart().getPartName().getName(), 1,
                                    Integer::sum);
                        }
                    }
                }
            }
            for (int i = 0; i < paragraphs.size() && !run.late(); i++) {
                var p = paragraphs.get(i);
                for (var r : p.getRuns()) {
                    for (var pic : r.getEmbeddedPictures()) {
                        var data = pic.getPictureData();
                        if (data == null || seen.get(data.getPackagePart().getPartName().getName()) >= 3) {
                            continue;
                        }
                        if (run.full()) {
                            run.overCount++;
                            continue;
                        }
                        FigureImage image = FigureImage.picture(data.getData(), run);
                        if (image == null) {
                            continue;
                        }
                        String caption = docxCaption(paragraphs, i, pic.getDescription());
                        String near = near(paragraphs, i);
                        run.keep(new ExtractedFigure(FigureExtractor.label(caption), caption, run.ocr(image), "",
                                near.isEmpty() ? caption : near, image.mediaType(), image.bytes(), image.width(),
                                image.height(), null));
                    }
                }
            }
        }
    }

    /**
     * The paragraphs in reading order, those in tables' cells included, row by row: a picture beside its caption in a
     * two-cell table (a common layout) was not found at all, as the body's own paragraphs hold neither.
     */
    private static void paragraphs(List<IBodyElement> elements, List<XWPFParagraph> out, int depth) {
        for (IBodyElement e : elements) {
            if (e instanceof XWPFParagraph p) {
                out.add(p);
            } else if (e instanceof XWPFTable t && depth < 8) {
                for (XWPFTableRow row : t.getRows()) {
                    for (XWPFTableCell cell : row.getTableCells()) {
                        paragraphs(cell.getBodyElements(), out, depth + 1);
                    }
                }
            }
        }
    }

    /** The paragraph after a picture (or before it) when it is styled or labelled as a caption, else its alt text. */
    private static String docxCaption(List<XWPFParagraph> paragraphs, int at,
            String description) {
        String own = paragraphs.get(at).getText().strip();
        if (FigureExtractor.LABEL.matcher(own).find()) {
            return FigureExtractor.clip(own, FigureExtractor.MAX_CAPTION);
        }
        for (int i : new int[] {at + 1, at - 1}) {
            if (i < 0 || i >= paragraphs.size()) {
                continue;
            }
            var p = paragraphs.get(i);
            String text = p.getText().strip();
            String style = p.getStyle() == null ? "" : p.getStyle().toLowerCase(Locale.ROOT);
            if (!text.isEmpty() && (style.contains("caption") || FigureExtractor.LABEL.matcher(text).find())) {
                return FigureExtractor.clip(text, FigureExtractor.MAX_CAPTION);
            }
        }
        return description == null ? "" : FigureExtractor.clip(description.strip(), FigureExtractor.MAX_CAPTION);
    }

    /** The closest non-empty paragraph before a picture (or after it), to anchor the figure to its chunk. */
    private static String near(List<XWPFParagraph> paragraphs, int at) {
        for (int i : new int[] {at - 1, at + 1, at - 2, at + 2}) {
            if (i >= 0 && i < paragraphs.size() && !paragraphs.get(i).getText().isBlank()) {
                return FigureExtractor.clip(paragraphs.get(i).getText().strip(), 200);
            }
        }
        return "";
    }
}
