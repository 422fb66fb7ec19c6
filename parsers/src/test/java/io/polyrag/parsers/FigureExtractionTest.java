package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import io.polyrag.testing.DocumentFixtures;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class FigureExtractionTest {
    private final DocumentsParser parser = new DocumentsParser(64L << 20, 60_000);
    private static final Parser.FigureLimits AUTO = new Parser.FigureLimits(FigureMode.AUTO, 50, 16L << 20, 60_000);

    private Parser.Figures figures(String name, byte[] bytes, Parser.FigureLimits limits) {
        SourceItem item = new SourceItem("file:///" + name, name, bytes, null);
        return parser.figures(item, parser.parse(item).mediaType(), limits);
    }

    private static BufferedImage decoded(ExtractedFigure f) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(f.bytes()));
        assertThat(image).as("the stored bytes are an image a browser can show").isNotNull();
        assertThat(image.getWidth()).isEqualTo(f.width());
        assertThat(image.getHeight()).isEqualTo(f.height());
        return image;
    }

    @Test
    void aPdfsDrawnChartAndEmbeddedImageComeWithTheirCaptionsAndPagesAndTheRepeatedLogoDoesNot() throws Exception {
        Parser.Figures found = figures("report.pdf", DocumentFixtures.figuresPdf(), AUTO);

        assertThat(found.warnings()).isEmpty();
        assertThat(found.figures()).extracting(ExtractedFigure::location).containsExactly("page 1", "page 2");
        ExtractedFigure drawn = found.figures().get(0);
        assertThat(drawn.caption()).startsWith("Figure 1: Quarterly sales by region");
        assertThat(drawn.label()).isEqualTo("Figure 1");
        assertThat(drawn.mediaType()).isEqualTo("image/png");
        assertThat(drawn.text()).as("the words drawn inside the chart").contains("North", "South", "East", "West");
        // Its region, in points from the page's top left: the axes start at x 100, the bars rise 200 points.
        assertThat(drawn.box().x()).isBetween(99.0, 101.0);
        assertThat(drawn.box().width()).isBetween(319.0, 330.0);
        assertThat(drawn.box().y()).isBetween(171.0, 173.0);
        BufferedImage chart = decoded(drawn);
        // Rendered at 144 dpi: the region of bars and axes (about 320 × 200 points) plus a margin.
        assertThat(chart.getWidth()).isBetween(600, 760);
        assertThat(chart.getHeight()).isBetween(380, 480);
        assertThat(nonWhite(chart)).as("the bars are in the picture").isGreaterThan(0.1);

        ExtractedFigure embedded = found.figures().get(1);
        assertThat(embedded.caption()).isEqualTo("Figure 2: Staff turnover at the Leeds warehouse, percent");
        assertThat(embedded.label()).isEqualTo("Figure 2");
        BufferedImage png = decoded(embedded);
        assertThat(png.getWidth()).isEqualTo(800);
        assertThat(png.getHeight()).isEqualTo(500);
    }

    @Test
    void autoTakesOnlyDrawingsNextToACaptionForceTakesThemAllAndSkipTakesNothing() {
        byte[] pdf = DocumentFixtures.figuresPdf();
        // The chart without its caption line is still a drawing: force keeps it, auto does not.
        Parser.Figures forced = figures("report.pdf", pdf, new Parser.FigureLimits(FigureMode.FORCE, 50, 16L << 20,
                60_000));
        assertThat(forced.figures()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(figures("report.pdf", pdf, new Parser.FigureLimits(FigureMode.SKIP, 50, 16L << 20, 60_000))
                .figures()).isEmpty();
        assertThat(figures("plain.pdf", DocumentFixtures.pdf(List.of("Only words here.")), AUTO).figures()).isEmpty();
    }

    @Test
    void aPresentationsPictureKeepsItsSlideAndTheCaptionUnderIt() throws Exception {
        Parser.Figures found = figures("churn.pptx", DocumentFixtures.figuresPptx(), AUTO);

        assertThat(found.figures()).hasSize(1);
        ExtractedFigure f = found.figures().getFirst();
        assertThat(f.location()).isEqualTo("slide 1");
        assertThat(f.box()).isEqualTo(new io.polyrag.core.model.Figure.Box(120, 130, 400, 250));
        assertThat(f.caption()).isEqualTo("Figure 1: Monthly churn rate after the loyalty programme");
        assertThat(f.mediaType()).isEqualTo("image/png");
        decoded(f);
    }

    @Test
    void aWordPictureTakesTheCaptionParagraphAfterItAndTheProseBeforeIt() throws Exception {
        Parser.Figures found = figures("pump.docx", DocumentFixtures.figuresDocx(), AUTO);

        assertThat(found.figures()).hasSize(1);
        ExtractedFigure f = found.figures().getFirst();
        assertThat(f.caption()).isEqualTo("Figure 1: Exploded view of the pump assembly");
        assertThat(f.location()).isEmpty();
        assertThat(f.box()).as("Word has no pages").isNull();
        assertThat(f.near()).contains("pump assembly has four parts");
        decoded(f);
    }

    /** A picture beside its caption in a table's cells (a common layout) is a figure with that caption. */
    @Test
    void aWordPictureInATableCellIsFoundWithTheCaptionBesideIt() throws Exception {
        byte[] docx;
        try (var doc = new org.apache.poi.xwpf.usermodel.XWPFDocument(); var out = new java.io.ByteArrayOutputStream()) {
            doc.createParagraph().createRun().setText("The tide gauge readings follow.");
            var table = doc.createTable(1, 2);
            table.getRow(0).getCell(0).getParagraphs().getFirst().createRun().addPicture(new ByteArrayInputStream(
                    DocumentFixtures.chartPng("Tides", List.of("Mon", "Tue", "Wed"), List.of(3, 5, 4))),
                    org.apache.poi.xwpf.usermodel.Document.PICTURE_TYPE_PNG, "tides.png",
                    org.apache.poi.util.Units.toEMU(200), org.apache.poi.util.Units.toEMU(200));
            table.getRow(0).getCell(1).setText("Figure 1: Tides at the harbour gauge");
            doc.write(out);
            docx = out.toByteArray();
        }
        Parser.Figures found = figures("tides.docx", docx, AUTO);
        assertThat(found.figures()).singleElement().satisfies(f -> assertThat(f.caption())
                .isEqualTo("Figure 1: Tides at the harbour gauge"));
    }

    @Test
    void anOfficeFilesPicturesAreFiguresNotASectionNamedAfterTheirFile() {
        var docx = parser.parse(new SourceItem("file:///pump.docx", "pump.docx", DocumentFixtures.figuresDocx(), null));
        assertThat(docx.title()).isNotEqualTo("image1.png");
        assertThat(docx.blocks()).allSatisfy(b -> assertThat(b.headingPath()).doesNotContain("image1.png"));
        var pptx = parser.parse(new SourceItem("file:///churn.pptx", "churn.pptx", DocumentFixtures.figuresPptx(),
                null));
        assertThat(pptx.blocks()).allSatisfy(b -> assertThat(b.headingPath()).doesNotContain("image1.png"));
    }

    @Test
    void aWordFileOfPastedScansIsStillReadByOcr() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(parser.ocr(), "Tesseract is not installed");
        byte[] docx;
        try (var doc = new org.apache.poi.xwpf.usermodel.XWPFDocument(); var out = new java.io.ByteArrayOutputStream()) {
            doc.createParagraph().createRun().addPicture(new ByteArrayInputStream(DocumentFixtures.textImage(
                    "Lighthouse keeper logbook")), org.apache.poi.xwpf.usermodel.Document.PICTURE_TYPE_PNG, "scan.png",
                    org.apache.poi.util.Units.toEMU(420), org.apache.poi.util.Units.toEMU(60));
            doc.write(out);
            docx = out.toByteArray();
        }
        var parsed = parser.parse(new SourceItem("file:///scan.docx", "scan.docx", docx, null));
        assertThat(parsed.text().toLowerCase(java.util.Locale.ROOT)).contains("logbook");
    }

    /**
     * A Word file with no text of its own has its pictures OCR'd, never an embedded document: the fallback parsed
     * everything embedded, so an empty docx carrying another one (or an archive, a bomb) was indexed as that one.
     */
    @Test
    void aWordFileWithNoTextDoesNotIndexTheDocumentItEmbeds() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(parser.ocr(), "Tesseract is not installed");
        byte[] inner;
        try (var doc = new org.apache.poi.xwpf.usermodel.XWPFDocument(); var out = new java.io.ByteArrayOutputStream()) {
            doc.createParagraph().createRun().setText("INNER SECRET of the embedded report.");
            doc.write(out);
            inner = out.toByteArray();
        }
        byte[] outer;
        try (var doc = new org.apache.poi.xwpf.usermodel.XWPFDocument(); var out = new java.io.ByteArrayOutputStream()) {
            doc.createParagraph();
            var name = org.apache.poi.openxml4j.opc.PackagingURIHelper.createPartName("/word/embeddings/inner.docx");
            var part = doc.getPackage().createPart(name,
                    "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
            try (var os = part.getOutputStream()) {
                os.write(inner);
            }
            doc.getPackagePart().addRelationship(name, org.apache.poi.openxml4j.opc.TargetMode.INTERNAL,
                    org.apache.poi.ooxml.POIXMLDocument.PACK_OBJECT_REL_TYPE);
            doc.write(out);
            outer = out.toByteArray();
        }
        byte[] given = outer;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parser.parse(new SourceItem("file:///empty.docx",
                "empty.docx", given, null))).hasMessageContaining("no text to index");
    }

    @Test
    void fiveThousandImagesAreCappedWithAWarning() {
        long start = System.nanoTime();
        Parser.Figures found = figures("catalogue.pdf", DocumentFixtures.manyImagesPdf(5000),
                new Parser.FigureLimits(FigureMode.AUTO, 50, 16L << 20, 60_000));
        assertThat(found.figures()).hasSize(50);
        assertThat(found.warnings()).anyMatch(w -> w.contains("more were left out") && w.contains("at most 50"));
        assertThat(System.nanoTime() - start).as("bounded: well inside the parse time limit").isLessThan(60_000_000_000L);
    }

    @Test
    void aByteLimitStopsAtTheLimitWithAWarning() {
        Parser.Figures found = figures("report.pdf", DocumentFixtures.figuresPdf(),
                new Parser.FigureLimits(FigureMode.AUTO, 50, 5_000, 60_000));
        assertThat(found.figures().stream().mapToLong(f -> f.bytes().length).sum()).isLessThanOrEqualTo(5_000);
        assertThat(found.warnings()).anyMatch(w -> w.contains("MiB kept from one file"));
    }

    @Test
    void aHugeImageAndACorruptJpegAreLeftOutWithWarningsAndTheTextStillParses() {
        byte[] pdf = DocumentFixtures.hostileImagesPdf();
        SourceItem item = new SourceItem("file:///photos.pdf", "photos.pdf", pdf, null);
        assertThat(parser.parse(item).text()).contains("inspection photographs");
        Parser.Figures found = parser.figures(item, "application/pdf", AUTO);
        assertThat(found.figures()).isEmpty();
        // The 20,000-pixel entry and the image with such a soft mask are too large; the garbage JPEG and the one
        // whose header disagrees with its entry are not decoded either.
        assertThat(found.warnings()).anyMatch(w -> w.contains("2 images larger than 100 megapixels"))
                .anyMatch(w -> w.contains("2 images could not be decoded"))
                .anyMatch(w -> w.contains("could not be decoded"));
    }

    @Test
    void scannedPagesAreNotFigures() {
        byte[] pdf = DocumentFixtures.imageOnlyPdf(300);
        long start = System.nanoTime();
        Parser.Figures found = parser.figures(new SourceItem("file:///scan.pdf", "scan.pdf", pdf, null),
                "application/pdf", AUTO);
        assertThat(found.figures()).isEmpty();
        assertThat(System.nanoTime() - start).isLessThan(60_000_000_000L);
    }

    @Test
    void aCorruptFileGivesNoFiguresAndAWarningNeverAnException() {
        byte[] pdf = DocumentFixtures.figuresPdf();
        byte[] cut = java.util.Arrays.copyOf(pdf, pdf.length / 3);
        Parser.Figures found = parser.figures(new SourceItem("file:///cut.pdf", "cut.pdf", cut, null),
                "application/pdf", AUTO);
        assertThat(found.figures()).isEmpty();
    }

    private static double nonWhite(BufferedImage image) {
        long n = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                if ((image.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
                    n++;
                }
            }
        }
        return n / (image.getWidth() * image.getHeight() / 4.0);
    }
}
