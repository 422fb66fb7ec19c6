package io.polyrag.parsers;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.FigureMode;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/** The figures of a PDF: embedded images, and regions of vector drawing rendered to PNG, each with its caption. */
final class PdfFigures {
    private PdfFigures() {
    }

    // style: one PDF's pages walked once: images, drawings and captions share the page's state
    static void extract(byte[] bytes, FigureRun run) throws IOException {
        try (PDDocument doc = Loader.loadPDF(bytes)) {
            int pages = doc.getNumberOfPages();
            List<PdfPageScan.Candidate> candidates = new ArrayList<>();
            Map<COSBase, Set<Integer>> imagePages = new IdentityHashMap<>();
            List<List<TextLine>> lines = new ArrayList<>();
            for (int p = 0; p < pages && !run.late(); p++) {
                PDPage page = doc.getPage(p);
                PdfPageScan scan = new PdfPageScan(page, p);
                scan.processPage(page);
                for (PdfPageScan.Candidate c : scan.images) {
                    imagePages.computeIfAbsent(c.image().getCOSObject(), k -> new HashSet<>()).add(p);
                }
                List<Rectangle2D> regions = scan.regions();
                // A page with neither an image nor a drawing (most pages of a text PDF) costs one pass over its
                // content stream: its text lines are read only where a figure needs a caption.
                List<TextLine> pageLines = scan.images.isEmpty() && regions.isEmpty() ? List.of() : linesOrNone(doc, p);
                lines.add(pageLines);
                List<Rectangle2D> kept = new ArrayList<>();
                for (Rectangle2D r : regions) {
                    withLabels(r, pageLines);
                    if (run.limits.mode() == FigureMode.FORCE || TextLine.caption(pageLines, r, true) != null) {
                        kept.add(r);
                        candidates.add(new PdfPageScan.Candidate(p, r, null, true));
                    }
                }
                // An image inside a drawn figure is part of its rendering.
                for (PdfPageScan.Candidate c : scan.images) {
                    // On a page with no text layer the image is the page itself, scanned: OCR reads it as text.
                    if (pageLines.isEmpty()) {
                        continue;
                    }
                    if (kept.stream().noneMatch(r -> r.contains(c.box().getCenterX(), c.box().getCenterY()))) {
                        candidates.add(c);
                    }
                }
            }
            PDFRenderer renderer = new PDFRenderer(doc);
            renderer.setSubsamplingAllowed(true);
            Map<Integer, BufferedImage> rendered = new HashMap<>();
            candidates.sort(Comparator.comparingInt(PdfPageScan.Candidate::page)
                    .thenComparingDouble(c -> c.box().getY()).thenComparingDouble(c -> c.box().getX()));
            for (PdfPageScan.Candidate c : candidates) {
                if (run.late()) {
                    break;
                }
                if (run.full()) {
                    run.overCount++;
                    continue;
                }
                // The same image on three or more pages is a logo or a letterhead, not a figure.
                if (!c.drawing() && imagePages.get(c.image().getCOSObject()).size() >= 3) {
                    continue;
                }
                List<TextLine> pageLines = lines.size() > c.page() ? lines.get(c.page()) : List.of();
                FigureImage image;
                try {
                    image = c.drawing() ? render(doc, renderer, rendered, c) : decode(c.image(), run);
                } catch (IOException | RuntimeException e) {
                    // One page that cannot be rendered costs its own figures, not the file's.
                    run.unreadable++;
                    continue;
                }
                if (image == null) {
                    continue;
                }
                TextLine caption = TextLine.caption(pageLines, c.box(), true);
                if (caption == null) {
                    caption = TextLine.caption(pageLines, c.box(), false);
                }
                String captionText = caption == null ? "" : paragraph(pageLines, caption);
                String inside = c.drawing() ? inside(pageLines, c.box()) : run.ocr(image);
                rendered.keySet().removeIf(k -> k < c.page());
                run.keep(new ExtractedFigure(FigureExtractor.label(captionText), captionText, inside, "page " + (c.page() + 1),
                        captionText, image.mediaType(), image.bytes(), image.width(), image.height(), FigureExtractor.box(c.box())));
            }
        }
    }

    /** The page's text lines, or none when they cannot be read (its figures then go without captions). */
    private static List<TextLine> linesOrNone(PDDocument doc, int pageIndex) {
        try {
            return lines(doc, pageIndex);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The text lines of one page, with their boxes. */
    private static List<TextLine> lines(PDDocument doc, int pageIndex) throws IOException {
        List<TextLine> out = new ArrayList<>();
        PDFTextStripper stripper = new PDFTextStripper() {
            @Override
            protected void writeString(String text, List<TextPosition> positions) {
                if (positions.isEmpty() || text.isBlank()) {
                    return;
                }
                double x0 = Double.MAX_VALUE;
                double y0 = Double.MAX_VALUE;
                double x1 = -Double.MAX_VALUE;
                double y1 = -Double.MAX_VALUE;
                for (TextPosition t : positions) {
                    x0 = Math.min(x0, t.getXDirAdj());
                    x1 = Math.max(x1, t.getXDirAdj() + t.getWidthDirAdj());
                    y0 = Math.min(y0, t.getYDirAdj() - t.getHeightDir());
                    y1 = Math.max(y1, t.getYDirAdj());
                }
                out.add(new TextLine(text.strip(), new Rectangle2D.Double(x0, y0, Math.max(1, x1 - x0),
                        Math.max(1, y1 - y0))));
            }
        };
        stripper.setSortByPosition(true);
        stripper.setStartPage(pageIndex + 1);
        stripper.setEndPage(pageIndex + 1);
        stripper.getText(doc);
        // The stripper's "direction adjusted" coordinates are from the visible page's top left, as the shapes' are.
        return out;
    }


    /** A caption line and the lines that continue its paragraph below it (close, and left-aligned with it). */
    private static String paragraph(List<TextLine> lines, TextLine first) {
        StringBuilder sb = new StringBuilder(first.text());
        Rectangle2D last = first.box();
        for (int i = 0; i < 4; i++) {
            TextLine next = null;
            for (TextLine l : lines) {
                Rectangle2D b = l.box();
                double gap = b.getMinY() - last.getMaxY();
                if (gap >= -1 && gap <= last.getHeight() * 0.9 && Math.abs(b.getMinX() - first.box().getMinX()) < 30
                        && l != first && !FigureExtractor.LABEL.matcher(l.text()).find()) {
                    if (next == null || b.getMinY() < next.box().getMinY()) {
                        next = l;
                    }
                }
            }
            if (next == null || sb.length() + next.text().length() > FigureExtractor.MAX_CAPTION) {
                break;
            }
            sb.append(' ').append(next.text());
            last = next.box();
        }
        return FigureExtractor.clip(sb.toString().replaceAll("\\s+", " ").strip(), FigureExtractor.MAX_CAPTION);
    }

    /**
     * Grows a drawing's region over the short lines of text that touch it (a chart's axis labels and legend sit
     * just outside its bars), leaving out a caption.
     */
    private static void withLabels(Rectangle2D region, List<TextLine> lines) {
        for (int pass = 0; pass < 2; pass++) {
            for (TextLine l : lines) {
                if (l.text().length() <= 30 && !FigureExtractor.LABEL.matcher(l.text()).find() && FigureExtractor.near(region, l.box(), 14)
                        && !region.contains(l.box())) {
                    region.add(l.box());
                }
            }
        }
    }

    /** The words drawn inside a region (a chart's axis labels, its legend), in reading order. */
    private static String inside(List<TextLine> lines, Rectangle2D box) {
        StringBuilder sb = new StringBuilder();
        for (TextLine l : lines) {
            if (box.contains(l.box().getCenterX(), l.box().getCenterY())) {
                sb.append(sb.isEmpty() ? "" : " ").append(l.text());
            }
        }
        return FigureExtractor.clip(sb.toString().replaceAll("\\s+", " ").strip(), FigureExtractor.MAX_TEXT);
    }

    private static FigureImage render(PDDocument doc, PDFRenderer renderer, Map<Integer, BufferedImage> rendered,
            PdfPageScan.Candidate c) throws IOException {
        PDRectangle crop = doc.getPage(c.page()).getCropBox();
        float scale = (float) Math.min(FigureExtractor.RENDER_SCALE, Math.sqrt(16_000_000.0
                / Math.max(1, crop.getWidth() * crop.getHeight())));
        BufferedImage page = rendered.get(c.page());
        if (page == null) {
            page = renderer.renderImage(c.page(), scale);
            rendered.put(c.page(), page);
        }
        double pad = 6;
        int x = (int) Math.max(0, Math.floor((c.box().getMinX() - pad) * scale));
        int y = (int) Math.max(0, Math.floor((c.box().getMinY() - pad) * scale));
        int w = (int) Math.min(page.getWidth() - x, Math.ceil((c.box().getWidth() + 2 * pad) * scale));
        int h = (int) Math.min(page.getHeight() - y, Math.ceil((c.box().getHeight() + 2 * pad) * scale));
        if (w < FigureExtractor.MIN_SIDE_PX || h < FigureExtractor.MIN_SIDE_PX) {
            return null;
        }
        return FigureImage.png(page.getSubimage(x, y, w, h));
    }

    private static long pixelsOf(PDImageXObject mask) {
        return mask == null ? 0 : (long) mask.getWidth() * mask.getHeight();
    }

    /** An embedded image, decoded (scaled down when large) and re-encoded; null when it is left out. */
    private static FigureImage decode(PDImageXObject image, FigureRun run) {
        long pixels = (long) image.getWidth() * image.getHeight();
        // Its masks too: PDFBox decodes a soft mask at its own size and scales the image up to it (a 100x100 image
        // with a 20,000x20,000 mask of zeros, a few hundred kilobytes, took gigabytes).
        long masks;
        try {
            masks = Math.max(pixelsOf(image.getSoftMask()), pixelsOf(image.getMask()));
        } catch (IOException | RuntimeException e) {
            run.unreadable++;
            return null;
        }
        if (pixels > FigureExtractor.MAX_PIXELS || masks > FigureExtractor.MAX_PIXELS
                || masks > 4 * Math.max(1, pixels)) {
            run.tooLarge++;
            return null;
        }
        String suffix = image.getSuffix();
        if ("jpx".equals(suffix) || "jb2".equals(suffix)) {
            // Decoded at the size its own header says, whatever the PDF claims, and never checked cheaply here.
            run.unreadable++;
            return null;
        }
        if ("jpg".equals(suffix)) {
            // A JPEG is decoded at the size its header says, whatever the PDF claims: check that one.
            long declared = jpegPixels(image);
            if (declared < 0) {
                run.unreadable++;
                return null;
            }
            if (declared > FigureExtractor.MAX_PIXELS || declared > 4 * Math.max(1, pixels)) {
                run.tooLarge++;
                return null;
            }
        }
        try {
            int sub = FigureImage.subsampling(pixels);
            BufferedImage decoded = sub == 1 ? image.getImage() : image.getImage(null, sub);
            if (decoded == null) {
                run.unreadable++;
                return null;
            }
            if (sub == 1 && "jpg".equals(image.getSuffix()) && image.getColorSpace().getNumberOfComponents() != 4) {
                try (InputStream in = image.createInputStream(List.of(COSName.DCT_DECODE.getName()))) {
                    return new FigureImage(in.readAllBytes(), "image/jpeg", decoded.getWidth(), decoded.getHeight());
                }
            }
            return FigureImage.png(decoded);
        } catch (IOException | RuntimeException e) {
            run.unreadable++;
            return null;
        }
    }

    /** The pixels a JPEG stream's own header declares, read without decoding it; -1 when it has none. */
    private static long jpegPixels(PDImageXObject image) {
        try (InputStream raw = image.createInputStream(List.of(COSName.DCT_DECODE.getName()));
                ImageInputStream in = ImageIO.createImageInputStream(raw)) {
            var readers = ImageIO.getImageReadersByFormatName("jpeg");
            if (in == null || !readers.hasNext()) {
                return -1;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                return (long) reader.getWidth(0) * reader.getHeight(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
