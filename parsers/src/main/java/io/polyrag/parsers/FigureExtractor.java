package io.polyrag.parsers;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.Parser;
import java.awt.Color;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.apache.pdfbox.util.Matrix;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFGroupShape;
import org.apache.poi.xslf.usermodel.XSLFPictureData;
import org.apache.poi.xslf.usermodel.XSLFPictureShape;
import org.apache.poi.xslf.usermodel.XSLFShape;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;

/**
 * Takes the figures out of PDFs (embedded images; drawn charts, rendered to PNG) and Office files (pictures in
 * PowerPoint and Word), each with its caption, page or slide, and the text inside it.
 *
 * <p>What is left out on purpose: images smaller than {@value #MIN_SIDE_PX} pixels or {@value #MIN_SIDE_PT} points
 * on a side (icons, rules), the same image on three or more pages or slides (logos, letterheads), images covering
 * most of a page (a scan: its text is read by OCR, not kept as a figure), and images over {@value #MAX_PIXELS}
 * pixels (left out with a warning; up to that they are scaled down to about {@value #KEEP_PIXELS} pixels). Every
 * failure is local: a figure that cannot be read is skipped and counted in a warning.
 */
final class FigureExtractor {
    static final int MIN_SIDE_PX = 48;
    static final int MIN_SIDE_PT = 36;
    static final long MAX_PIXELS = 100_000_000L;
    static final long KEEP_PIXELS = 4_000_000L;
    /** Rendering scale for drawn figures: 2 × 72 = 144 dpi. */
    private static final float RENDER_SCALE = 2f;
    private static final int MAX_CAPTION = 600;
    private static final int MAX_TEXT = 1500;
    private static final int OCR_MAX = 20;
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
        Run run = new Run(limits);
        try {
            switch (mediaType) {
                case "application/pdf" -> pdf(bytes, run);
                case PPTX -> pptx(bytes, run);
                default -> docx(bytes, run);
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

    /** What one file's extraction has taken and left out. */
    private final class Run {
        final Parser.FigureLimits limits;
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

        Run(Parser.FigureLimits limits) {
            this.limits = limits;
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

        String ocr(Image image) {
            if (ocr == null || ocrDone >= OCR_MAX || image.width < 100 || image.height < 40 || late()) {
                return "";
            }
            ocrDone++;
            try {
                return clip(ocr.apply(image.bytes).replaceAll("\\s+", " ").strip(), MAX_TEXT);
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
                warnings.add("figures: " + tooLarge + " images larger than " + MAX_PIXELS / 1_000_000
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

    /** A decoded image ready to store. */
    private record Image(byte[] bytes, String mediaType, int width, int height) {
    }

    // ---------------------------------------------------------------- PDF

    /** A line of text on a page, in points from the page's top left. */
    private record Line(String text, Rectangle2D box) {
    }

    /** An image drawn on a page, or a region of vector drawing. */
    private record Candidate(int page, Rectangle2D box, PDImageXObject image, boolean drawing) {
    }

    // style: one PDF's pages walked once: images, drawings and captions share the page's state
    private void pdf(byte[] bytes, Run run) throws IOException {
        try (PDDocument doc = Loader.loadPDF(bytes)) {
            int pages = doc.getNumberOfPages();
            List<Candidate> candidates = new ArrayList<>();
            Map<COSBase, Set<Integer>> imagePages = new IdentityHashMap<>();
            List<List<Line>> lines = new ArrayList<>();
            for (int p = 0; p < pages && !run.late(); p++) {
                PDPage page = doc.getPage(p);
                Scan scan = new Scan(page, p);
                scan.processPage(page);
                for (Candidate c : scan.images) {
                    imagePages.computeIfAbsent(c.image().getCOSObject(), k -> new HashSet<>()).add(p);
                }
                List<Rectangle2D> regions = scan.regions();
                // A page with neither an image nor a drawing (most pages of a text PDF) costs one pass over its
                // content stream: its text lines are read only where a figure needs a caption.
                List<Line> pageLines = scan.images.isEmpty() && regions.isEmpty() ? List.of() : linesOrNone(doc, p);
                lines.add(pageLines);
                List<Rectangle2D> kept = new ArrayList<>();
                for (Rectangle2D r : regions) {
                    withLabels(r, pageLines);
                    if (run.limits.mode() == FigureMode.FORCE || caption(pageLines, r, true) != null) {
                        kept.add(r);
                        candidates.add(new Candidate(p, r, null, true));
                    }
                }
                // An image inside a drawn figure is part of its rendering.
                for (Candidate c : scan.images) {
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
            candidates.sort(Comparator.comparingInt(Candidate::page)
                    .thenComparingDouble(c -> c.box().getY()).thenComparingDouble(c -> c.box().getX()));
            for (Candidate c : candidates) {
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
                List<Line> pageLines = lines.size() > c.page() ? lines.get(c.page()) : List.of();
                Image image;
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
                Line caption = caption(pageLines, c.box(), true);
                if (caption == null) {
                    caption = caption(pageLines, c.box(), false);
                }
                String captionText = caption == null ? "" : paragraph(pageLines, caption);
                String inside = c.drawing() ? inside(pageLines, c.box()) : run.ocr(image);
                rendered.keySet().removeIf(k -> k < c.page());
                run.keep(new ExtractedFigure(label(captionText), captionText, inside, "page " + (c.page() + 1),
                        captionText, image.mediaType(), image.bytes(), image.width(), image.height(), box(c.box())));
            }
        }
    }

    /** The page's text lines, or none when they cannot be read (its figures then go without captions). */
    private static List<Line> linesOrNone(PDDocument doc, int pageIndex) {
        try {
            return lines(doc, pageIndex);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The text lines of one page, with their boxes. */
    private static List<Line> lines(PDDocument doc, int pageIndex) throws IOException {
        List<Line> out = new ArrayList<>();
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
                out.add(new Line(text.strip(), new Rectangle2D.Double(x0, y0, Math.max(1, x1 - x0),
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

    /**
     * The caption line of a figure: a labelled line ("Figure 3 …") just below or above it, or, when {@code labelled}
     * is false, a short line right below it.
     */
    private static Line caption(List<Line> lines, Rectangle2D box, boolean labelled) {
        Line best = null;
        double bestGap = Double.MAX_VALUE;
        for (Line l : lines) {
            Rectangle2D b = l.box();
            boolean overlaps = b.getMaxX() > box.getMinX() - 24 && b.getMinX() < box.getMaxX() + 24;
            if (!overlaps || box.contains(b.getCenterX(), b.getCenterY())) {
                continue;
            }
            double below = b.getMinY() - box.getMaxY();
            double above = box.getMinY() - b.getMaxY();
            double gap = below >= -2 ? below : above >= -2 ? above + 12 : Double.MAX_VALUE;
            if (labelled ? LABEL.matcher(l.text()).find() && gap <= 48
                    : below >= -2 && below <= 16 && l.text().length() <= 120) {
                if (gap < bestGap) {
                    bestGap = gap;
                    best = l;
                }
            }
        }
        return best;
    }

    /** A caption line and the lines that continue its paragraph below it (close, and left-aligned with it). */
    private static String paragraph(List<Line> lines, Line first) {
        StringBuilder sb = new StringBuilder(first.text());
        Rectangle2D last = first.box();
        for (int i = 0; i < 4; i++) {
            Line next = null;
            for (Line l : lines) {
                Rectangle2D b = l.box();
                double gap = b.getMinY() - last.getMaxY();
                if (gap >= -1 && gap <= last.getHeight() * 0.9 && Math.abs(b.getMinX() - first.box().getMinX()) < 30
                        && l != first && !LABEL.matcher(l.text()).find()) {
                    if (next == null || b.getMinY() < next.box().getMinY()) {
                        next = l;
                    }
                }
            }
            if (next == null || sb.length() + next.text().length() > MAX_CAPTION) {
                break;
            }
            sb.append(' ').append(next.text());
            last = next.box();
        }
        return clip(sb.toString().replaceAll("\\s+", " ").strip(), MAX_CAPTION);
    }

    /**
     * Grows a drawing's region over the short lines of text that touch it (a chart's axis labels and legend sit
     * just outside its bars), leaving out a caption.
     */
    private static void withLabels(Rectangle2D region, List<Line> lines) {
        for (int pass = 0; pass < 2; pass++) {
            for (Line l : lines) {
                if (l.text().length() <= 30 && !LABEL.matcher(l.text()).find() && near(region, l.box(), 14)
                        && !region.contains(l.box())) {
                    region.add(l.box());
                }
            }
        }
    }

    /** The words drawn inside a region (a chart's axis labels, its legend), in reading order. */
    private static String inside(List<Line> lines, Rectangle2D box) {
        StringBuilder sb = new StringBuilder();
        for (Line l : lines) {
            if (box.contains(l.box().getCenterX(), l.box().getCenterY())) {
                sb.append(sb.isEmpty() ? "" : " ").append(l.text());
            }
        }
        return clip(sb.toString().replaceAll("\\s+", " ").strip(), MAX_TEXT);
    }

    private static Image render(PDDocument doc, PDFRenderer renderer, Map<Integer, BufferedImage> rendered,
            Candidate c) throws IOException {
        PDRectangle crop = doc.getPage(c.page()).getCropBox();
        float scale = (float) Math.min(RENDER_SCALE, Math.sqrt(16_000_000.0
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
        if (w < MIN_SIDE_PX || h < MIN_SIDE_PX) {
            return null;
        }
        return png(page.getSubimage(x, y, w, h));
    }

    /** An embedded image, decoded (scaled down when large) and re-encoded; null when it is left out. */
    private static Image decode(PDImageXObject image, Run run) {
        long pixels = (long) image.getWidth() * image.getHeight();
        if (pixels > MAX_PIXELS) {
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
            if (declared > MAX_PIXELS || declared > 4 * Math.max(1, pixels)) {
                run.tooLarge++;
                return null;
            }
        }
        try {
            int sub = subsampling(pixels);
            BufferedImage decoded = sub == 1 ? image.getImage() : image.getImage(null, sub);
            if (decoded == null) {
                run.unreadable++;
                return null;
            }
            if (sub == 1 && "jpg".equals(image.getSuffix()) && image.getColorSpace().getNumberOfComponents() != 4) {
                try (InputStream in = image.createInputStream(List.of(COSName.DCT_DECODE.getName()))) {
                    return new Image(in.readAllBytes(), "image/jpeg", decoded.getWidth(), decoded.getHeight());
                }
            }
            return png(decoded);
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

    private static int subsampling(long pixels) {
        return pixels <= KEEP_PIXELS ? 1 : (int) Math.ceil(Math.sqrt((double) pixels / KEEP_PIXELS));
    }

    private static Image png(BufferedImage image) throws IOException {
        BufferedImage rgb = image;
        if (image.getType() != BufferedImage.TYPE_INT_RGB && image.getType() != BufferedImage.TYPE_INT_ARGB
                && image.getType() != BufferedImage.TYPE_3BYTE_BGR && image.getType() != BufferedImage.TYPE_BYTE_GRAY) {
            rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            var g = rgb.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, rgb.getWidth(), rgb.getHeight());
            g.drawImage(image, 0, 0, null);
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (!ImageIO.write(rgb, "png", out)) {
            throw new IOException("no PNG writer");
        }
        return new Image(out.toByteArray(), "image/png", rgb.getWidth(), rgb.getHeight());
    }

    /** One page's drawn images and vector paths. */
    private static final class Scan extends PDFGraphicsStreamEngine {
        final int pageIndex;
        final double pageWidth;
        final double pageHeight;
        final double left;
        final double top;
        final List<Candidate> images = new ArrayList<>();
        final List<Rectangle2D> shapes = new ArrayList<>();
        private Rectangle2D path;
        private Point2D current = new Point2D.Float();

        Scan(PDPage page, int pageIndex) {
            super(page);
            this.pageIndex = pageIndex;
            PDRectangle crop = page.getCropBox();
            this.pageWidth = crop.getWidth();
            this.pageHeight = crop.getHeight();
            this.left = crop.getLowerLeftX();
            this.top = crop.getUpperRightY();
        }

        /** A box in PDF space (origin bottom left) as one from the top left of the visible page. */
        private Rectangle2D fromTop(Rectangle2D b) {
            return new Rectangle2D.Double(b.getMinX() - left, top - b.getMaxY(), b.getWidth(), b.getHeight());
        }

        @Override
        public void drawImage(PDImage pdImage) {
            if (!(pdImage instanceof PDImageXObject x) || x.isStencil()) {
                return;
            }
            Matrix m = getGraphicsState().getCurrentTransformationMatrix();
            Rectangle2D box = null;
            for (float[] corner : new float[][] {{0, 0}, {1, 0}, {0, 1}, {1, 1}}) {
                Point2D.Float p = m.transformPoint(corner[0], corner[1]);
                if (box == null) {
                    box = new Rectangle2D.Double(p.x, p.y, 0, 0);
                } else {
                    box.add(p);
                }
            }
            Rectangle2D b = fromTop(box);
            boolean small = b.getWidth() < MIN_SIDE_PT || b.getHeight() < MIN_SIDE_PT || x.getWidth() < MIN_SIDE_PX
                    || x.getHeight() < MIN_SIDE_PX;
            boolean scan = b.getWidth() * b.getHeight() > 0.8 * pageWidth * pageHeight;
            if (!small && !scan) {
                images.add(new Candidate(pageIndex, b, x, false));
            }
        }

        private void add(Point2D p) {
            if (path == null) {
                path = new Rectangle2D.Double(p.getX(), p.getY(), 0, 0);
            } else {
                path.add(p);
            }
        }

        @Override
        public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
            add(p0);
            add(p1);
            add(p2);
            add(p3);
            current = p0;
        }

        @Override
        public void clip(int windingRule) {
            // a clipping path draws nothing
        }

        @Override
        public void moveTo(float x, float y) {
            current = new Point2D.Float(x, y);
            add(current);
        }

        @Override
        public void lineTo(float x, float y) {
            current = new Point2D.Float(x, y);
            add(current);
        }

        @Override
        public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
            add(new Point2D.Float(x1, y1));
            add(new Point2D.Float(x2, y2));
            current = new Point2D.Float(x3, y3);
            add(current);
        }

        @Override
        public Point2D getCurrentPoint() {
            return current;
        }

        @Override
        public void closePath() {
            // the box already holds the path's points
        }

        @Override
        public void endPath() {
            path = null;
        }

        @Override
        public void strokePath() {
            drawn(false);
        }

        @Override
        public void fillPath(int windingRule) {
            drawn(true);
        }

        @Override
        public void fillAndStrokePath(int windingRule) {
            drawn(false);
        }

        @Override
        public void shadingFill(COSName shadingName) {
            // a shading paints the clip region; not a shape of its own
        }

        private void drawn(boolean fill) {
            Rectangle2D p = path;
            path = null;
            if (p == null || shapes.size() > 20_000) {
                return;
            }
            if (fill) {
                try {
                    // A white fill is a background, not part of a drawing.
                    if (getGraphicsState().getNonStrokingColor().toRGB() == 0xFFFFFF) {
                        return;
                    }
                } catch (IOException | RuntimeException e) {
                    // unknown colour: count it
                }
            }
            Rectangle2D b = fromTop(p);
            if (b.getWidth() * b.getHeight() > 0.6 * pageWidth * pageHeight) {
                return;
            }
            shapes.add(b);
        }

        /**
         * Regions of vector drawing: shapes close to one another (within 10 points) grouped, kept when there are at
         * least three and they cover at least 72 × 48 points.
         */
        List<Rectangle2D> regions() {
            List<Rectangle2D> groups = new ArrayList<>();
            List<Integer> counts = new ArrayList<>();
            for (Rectangle2D s : shapes) {
                Rectangle2D into = null;
                int count = 1;
                for (int i = groups.size() - 1; i >= 0; i--) {
                    if (near(groups.get(i), s, 10)) {
                        if (into == null) {
                            into = new Rectangle2D.Double();
                            into.setRect(groups.get(i));
                        } else {
                            into.add(groups.get(i));
                        }
                        count += counts.get(i);
                        groups.remove(i);
                        counts.remove(i);
                    }
                }
                if (into == null) {
                    into = new Rectangle2D.Double();
                    into.setRect(s);
                } else {
                    into.add(s);
                }
                groups.add(into);
                counts.add(count);
            }
            List<Rectangle2D> out = new ArrayList<>();
            // Merging can bring two groups within reach of each other: once more over the groups.
            for (int i = 0; i < groups.size(); i++) {
                for (int j = groups.size() - 1; j > i; j--) {
                    if (near(groups.get(i), groups.get(j), 10)) {
                        groups.get(i).add(groups.get(j));
                        counts.set(i, counts.get(i) + counts.get(j));
                        groups.remove(j);
                        counts.remove(j);
                    }
                }
            }
            for (int i = 0; i < groups.size(); i++) {
                Rectangle2D g = groups.get(i);
                if (counts.get(i) >= 3 && g.getWidth() >= 72 && g.getHeight() >= 48) {
                    out.add(g);
                }
            }
            return out;
        }
    }

    /** Whether two boxes (lines may have no width or height) come within {@code gap} points of each other. */
    private static boolean near(Rectangle2D a, Rectangle2D b, double gap) {
        return a.getMinX() - gap <= b.getMaxX() && b.getMinX() - gap <= a.getMaxX() && a.getMinY() - gap <= b.getMaxY()
                && b.getMinY() - gap <= a.getMaxY();
    }

    // ---------------------------------------------------------------- Office

    /** A picture's bytes as decoded and re-encoded for a browser, or null when it is left out. */
    private static Image picture(byte[] data, Run run) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(data))) {
            if (in == null) {
                run.unreadable++;
                return null;
            }
            var readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                run.unreadable++;
                return null;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                int w = reader.getWidth(0);
                int h = reader.getHeight(0);
                long pixels = (long) w * h;
                if (pixels > MAX_PIXELS) {
                    run.tooLarge++;
                    return null;
                }
                if (w < MIN_SIDE_PX || h < MIN_SIDE_PX) {
                    return null;
                }
                String format = reader.getFormatName().toLowerCase(Locale.ROOT);
                int sub = subsampling(pixels);
                ImageReadParam param = reader.getDefaultReadParam();
                param.setSourceSubsampling(sub, sub, 0, 0);
                BufferedImage image = reader.read(0, param);
                if (sub == 1 && (format.equals("png") || format.equals("jpeg") || format.equals("gif"))) {
                    return new Image(data, "image/" + format, w, h);
                }
                return png(image);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            run.unreadable++;
            return null;
        }
    }

    private void pptx(byte[] bytes, Run run) throws IOException {
        try (var show = new XMLSlideShow(new ByteArrayInputStream(bytes))) {
            record Shape(Rectangle2D box, XSLFShape shape) {
            }
            List<List<Shape>> slides = new ArrayList<>();
            Map<String, Set<Integer>> seen = new HashMap<>();
            int n = 0;
            for (var slide : show.getSlides()) {
                List<Shape> shapes = new ArrayList<>();
                flatten(slide.getShapes(), shapes, Shape::new);
                for (Shape s : shapes) {
                    if (s.shape() instanceof XSLFPictureShape p
                            && p.getPictureData() != null) {
                        seen.computeIfAbsent(checksum(p.getPictureData()), k -> new HashSet<>()).add(n);
                    }
                }
                slides.add(shapes);
                n++;
            }
            for (int i = 0; i < slides.size() && !run.late(); i++) {
                List<Line> texts = new ArrayList<>();
                String title = "";
                for (Shape s : slides.get(i)) {
                    if (s.shape() instanceof XSLFTextShape t && t.getText() != null
                            && !t.getText().isBlank()) {
                        texts.add(new Line(t.getText().replaceAll("\\s+", " ").strip(), s.box()));
                        var type = t.getTextType();
                        if (title.isEmpty() && type != null && type.name().contains("TITLE")) {
                            title = t.getText().replaceAll("\\s+", " ").strip();
                        }
                    }
                }
                for (Shape s : slides.get(i)) {
                    if (!(s.shape() instanceof XSLFPictureShape p)
                            || p.getPictureData() == null
                            || seen.get(checksum(p.getPictureData())).size() >= 3) {
                        continue;
                    }
                    if (s.box().getWidth() < MIN_SIDE_PT || s.box().getHeight() < MIN_SIDE_PT) {
                        continue;
                    }
                    if (run.full()) {
                        run.overCount++;
                        continue;
                    }
                    Image image = picture(p.getPictureData().getData(), run);
                    if (image == null) {
                        continue;
                    }
                    Line c = caption(texts, s.box(), true);
                    if (c == null) {
                        c = caption(texts, s.box(), false);
                    }
                    String caption = c != null ? clip(c.text(), MAX_CAPTION) : title;
                    run.keep(new ExtractedFigure(label(caption), caption, run.ocr(image), "slide " + (i + 1), caption,
                            image.mediaType(), image.bytes(), image.width(), image.height(), box(s.box())));
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

    private void docx(byte[] bytes, Run run) throws IOException {
        try (var doc = new XWPFDocument(new ByteArrayInputStream(bytes))) {
            List<XWPFParagraph> paragraphs = doc.getParagraphs();
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
                        Image image = picture(data.getData(), run);
                        if (image == null) {
                            continue;
                        }
                        String caption = docxCaption(paragraphs, i, pic.getDescription());
                        String near = near(paragraphs, i);
                        run.keep(new ExtractedFigure(label(caption), caption, run.ocr(image), "",
                                near.isEmpty() ? caption : near, image.mediaType(), image.bytes(), image.width(),
                                image.height(), null));
                    }
                }
            }
        }
    }

    /** The paragraph after a picture (or before it) when it is styled or labelled as a caption, else its alt text. */
    private static String docxCaption(List<XWPFParagraph> paragraphs, int at,
            String description) {
        String own = paragraphs.get(at).getText().strip();
        if (LABEL.matcher(own).find()) {
            return clip(own, MAX_CAPTION);
        }
        for (int i : new int[] {at + 1, at - 1}) {
            if (i < 0 || i >= paragraphs.size()) {
                continue;
            }
            var p = paragraphs.get(i);
            String text = p.getText().strip();
            String style = p.getStyle() == null ? "" : p.getStyle().toLowerCase(Locale.ROOT);
            if (!text.isEmpty() && (style.contains("caption") || LABEL.matcher(text).find())) {
                return clip(text, MAX_CAPTION);
            }
        }
        return description == null ? "" : clip(description.strip(), MAX_CAPTION);
    }

    /** The closest non-empty paragraph before a picture (or after it), to anchor the figure to its chunk. */
    private static String near(List<XWPFParagraph> paragraphs, int at) {
        for (int i : new int[] {at - 1, at + 1, at - 2, at + 2}) {
            if (i >= 0 && i < paragraphs.size() && !paragraphs.get(i).getText().isBlank()) {
                return clip(paragraphs.get(i).getText().strip(), 200);
            }
        }
        return "";
    }

    private static Figure.Box box(Rectangle2D r) {
        return new Figure.Box(r.getX(), r.getY(), r.getWidth(), r.getHeight());
    }

    /** The label a caption starts with ("Figure 3"), normalised, or empty. */
    static String label(String caption) {
        Matcher m = LABEL.matcher(caption == null ? "" : caption);
        return m.find() ? m.group(1).replaceAll("\\s+", " ").strip() : "";
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max).strip() + "…";
    }
}
