package io.polyrag.parsers;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.Ids;
import java.awt.geom.Rectangle2D;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFGroupShape;
import org.apache.poi.xslf.usermodel.XSLFPictureData;
import org.apache.poi.xslf.usermodel.XSLFPictureShape;
import org.apache.poi.xslf.usermodel.XSLFShape;
import org.apache.poi.xslf.usermodel.XSLFTextShape;

/** The pictures of a PowerPoint file, each with its slide, caption (or the slide's title) and OCR text. */
final class PptxFigures {
    private PptxFigures() {
    }

    private record Shape(Rectangle2D box, XSLFShape shape) {
    }

    /**
     * Each slide's shapes, and on which slides each picture (by its bytes' digest) appears. Each picture part is
     * hashed once, however many shapes show it: it was copied and hashed twice per shape (3,000 shapes of one 100 MB
     * picture were 6,000 passes over it, with no deadline between them).
     */
    private static List<List<Shape>> slides(XMLSlideShow show, FigureRun run, Map<XSLFPictureData, String> sums,
            Map<String, Set<Integer>> seen) {
        List<List<Shape>> slides = new ArrayList<>();
        int n = 0;
        for (var slide : show.getSlides()) {
            if (run.late()) {
                break;
            }
            List<Shape> shapes = new ArrayList<>();
            flatten(slide.getShapes(), shapes, Shape::new);
            for (Shape s : shapes) {
                if (s.shape() instanceof XSLFPictureShape p && p.getPictureData() != null) {
                    seen.computeIfAbsent(sums.computeIfAbsent(p.getPictureData(), PptxFigures::checksum),
                            k -> new HashSet<>()).add(n);
                }
            }
            slides.add(shapes);
            n++;
        }
        return slides;
    }

    static void extract(byte[] bytes, FigureRun run) throws IOException {
        try (var show = new XMLSlideShow(new ByteArrayInputStream(bytes))) {
            Map<String, Set<Integer>> seen = new HashMap<>();
            Map<XSLFPictureData, String> sums = new IdentityHashMap<>();
            List<List<Shape>> slides = slides(show, run, sums, seen);
            for (int i = 0; i < slides.size() && !run.late(); i++) {
                List<TextLine> texts = new ArrayList<>();
                String title = "";
                for (Shape s : slides.get(i)) {
                    if (s.shape() instanceof XSLFTextShape t && t.getText() != null
                            && !t.getText().isBlank()) {
                        texts.add(new TextLine(t.getText().replaceAll("\\s+", " ").strip(), s.box()));
                        var type = t.getTextType();
                        if (title.isEmpty() && type != null && type.name().contains("TITLE")) {
                            title = t.getText().replaceAll("\\s+", " ").strip();
                        }
                    }
                }
                for (Shape s : slides.get(i)) {
                    if (run.late()) {
                        break;
                    }
                    if (!(s.shape() instanceof XSLFPictureShape p)
                            || p.getPictureData() == null
                            || seen.getOrDefault(sums.computeIfAbsent(p.getPictureData(), PptxFigures::checksum),
                                    Set.of()).size() >= 3) {
                        continue;
                    }
                    if (s.box().getWidth() < FigureExtractor.MIN_SIDE_PT || s.box().getHeight() < FigureExtractor.MIN_SIDE_PT) {
                        continue;
                    }
                    if (run.full()) {
                        run.overCount++;
                        continue;
                    }
                    FigureImage image = FigureImage.picture(p.getPictureData().getData(), run);
                    if (image == null) {
                        continue;
                    }
                    TextLine c = TextLine.caption(texts, s.box(), true);
                    if (c == null) {
                        c = TextLine.caption(texts, s.box(), false);
                    }
                    String caption = c != null ? FigureExtractor.clip(c.text(), FigureExtractor.MAX_CAPTION) : title;
                    run.keep(new ExtractedFigure(FigureExtractor.label(caption), caption, run.ocr(image), "slide " + (i + 1), caption,
                            image.mediaType(), image.bytes(), image.width(), image.height(), FigureExtractor.box(s.box())));
                }
            }
        }
    }

    private static String checksum(XSLFPictureData data) {
        return Ids.sha256Hex(data.getData());
    }

    private static <T> void flatten(List<XSLFShape> shapes, List<T> out,
            BiFunction<Rectangle2D, XSLFShape, T> make) {
        for (var s : shapes) {
            if (s instanceof XSLFGroupShape g) {
                flatten(g.getShapes(), out, make);
            } else if (s.getAnchor() != null) {
                out.add(make.apply(s.getAnchor(), s));
            }
        }
    }
}
