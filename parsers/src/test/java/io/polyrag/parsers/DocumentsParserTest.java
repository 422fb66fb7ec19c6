package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Block;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.testing.DocumentFixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentsParserTest {
    private final DocumentsParser parser = new DocumentsParser(64L << 20, 60_000);

    private ParsedDocument parse(String name, byte[] bytes) {
        return parser.parse(new SourceItem("test:" + name, name, bytes, null));
    }

    private static Block blockContaining(ParsedDocument doc, String phrase) {
        return doc.blocks().stream().filter(b -> b.text().contains(phrase)).findFirst()
                .orElseThrow(() -> new AssertionError("no block contains '" + phrase + "' in " + doc.blocks()));
    }

    @Test
    void a_pdf_keeps_its_pages() {
        ParsedDocument doc = parse("report.pdf", DocumentFixtures.pdf(List.of("Introduction to tidal energy.",
                "Turbines sit on the seabed.", "The lagoon at Swansea produces 320 megawatts.")));
        assertThat(doc.mediaType()).isEqualTo("application/pdf");
        assertThat(blockContaining(doc, "Swansea").location()).isEqualTo("page 3");
        assertThat(blockContaining(doc, "Introduction").location()).isEqualTo("page 1");
        assertThat(doc.title()).isEqualTo("report");
    }

    @Test
    void a_word_document_keeps_headings_and_tables() {
        ParsedDocument doc = parse("notes.docx", DocumentFixtures.docx("Harvest plan", "We pick in September.",
                List.of(List.of("Variety", "Rows"), List.of("Riesling", "14"), List.of("Pinot Noir", "9"))));
        Block table = doc.blocks().stream().filter(b -> b.kind() == ChunkKind.TABLE).findFirst().orElseThrow();
        assertThat(table.text()).isEqualTo("Variety | Rows\nRiesling | 14\nPinot Noir | 9");
        assertThat(table.headingPath()).containsExactly("Harvest plan");
        assertThat(blockContaining(doc, "September").kind()).isEqualTo(ChunkKind.PROSE);
    }

    @Test
    void a_presentation_keeps_its_slides() {
        ParsedDocument doc = parse("deck.pptx", DocumentFixtures.pptx(List.of("Quarterly review",
                "Churn fell to four percent in the northern region")));
        assertThat(blockContaining(doc, "Churn fell").location()).isEqualTo("slide 2");
        assertThat(blockContaining(doc, "Quarterly").location()).isEqualTo("slide 1");
    }

    /** A file that is text by its bytes is read as text whatever its extension (.tex, .org, .srt). */
    @Test
    void text_with_an_extension_the_text_parser_does_not_know_is_read_as_text() {
        for (String name : List.of("chapter.tex", "notes.org", "subtitles.srt")) {
            ParsedDocument doc = parse(name, ("High water at noon, said the harbour master, and the pilot boats "
                    + "wait at the bar until then.").getBytes(StandardCharsets.UTF_8));
            assertThat(doc.text()).as(name).contains("High water at noon");
        }
        // Declared as what it is by a web server, still read; a picture in XML is no text to index.
        assertThat(parser.parse(new SourceItem("test:ch.tex", "ch.tex", "\\section{Tides} High water at noon."
                .getBytes(StandardCharsets.UTF_8), "application/x-tex")).text()).contains("High water at noon");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse("icon.svg", ("<svg xmlns=\"http://www.w3.org/"
                + "2000/svg\"><path d=\"M0 0L10 10\"/></svg>").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidInputException.class);
    }

    /** A template's master text is not the slides' text: it was written after every one of them. */
    @Test
    void a_slide_masters_text_is_not_repeated_on_every_slide() throws Exception {
        byte[] deck;
        try (org.apache.poi.xslf.usermodel.XMLSlideShow show = new org.apache.poi.xslf.usermodel.XMLSlideShow();
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream()) {
            var box = show.getSlideMasters().getFirst().createTextBox();
            box.setAnchor(new java.awt.Rectangle(10, 10, 400, 40));
            box.setText("Marisco internal use only");
            for (String text : List.of("Harbour tides", "Pilot boats", "Buoy colours")) {
                show.createSlide().createTextBox().setText(text);
            }
            show.write(out);
            deck = out.toByteArray();
        }
        ParsedDocument doc = parse("deck.pptx", deck);
        assertThat(doc.text()).contains("Harbour tides").contains("Buoy colours");
        assertThat(doc.text().split("Marisco internal", -1).length - 1).as(doc.text()).isLessThanOrEqualTo(1);
    }

    @Test
    void a_spreadsheet_keeps_sheet_names_headers_and_formula_values() {
        ParsedDocument doc = parse("budget.xlsx", DocumentFixtures.xlsx("Budget", List.of("Item", "Qty", "Price",
                "Total"), List.of(List.of("Quince paste", 3, 4.5), List.of("Saffron", 2, 11))));
        Block table = doc.blocks().stream().filter(b -> b.kind() == ChunkKind.TABLE).findFirst().orElseThrow();
        assertThat(table.location()).isEqualTo("sheet Budget");
        assertThat(table.text()).startsWith("Item | Qty | Price | Total").contains("Quince paste").contains("13.5")
                .contains("22").doesNotContain("B2*C2").doesNotContain("*");
    }

    /** One cell in the sheet's last column used to pad each of its rows to 16,384 cells: 150 M characters. */
    @Test
    void a_sheet_with_one_far_cell_is_not_padded_to_its_width() throws Exception {
        byte[] xlsx;
        try (org.apache.poi.xssf.usermodel.XSSFWorkbook wb = new org.apache.poi.xssf.usermodel.XSSFWorkbook();
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream()) {
            var sheet = wb.createSheet("Wide");
            sheet.createRow(0).createCell(16_383).setCellValue("far");
            for (int r = 1; r <= 3_000; r++) {
                sheet.createRow(r).createCell(0).setCellValue("row " + r);
            }
            wb.write(out);
            xlsx = out.toByteArray();
        }
        ParsedDocument doc = parse("wide.xlsx", xlsx);
        String tables = String.join("\n", doc.blocks().stream().filter(b -> b.kind() == ChunkKind.TABLE)
                .map(Block::text).toList());
        assertThat(tables).contains("far").contains("row 3000");
        assertThat(tables.length()).as("two columns are used, not 16,384").isLessThan(100_000);
    }

    /** A PDF's bookmarks, written by its parser after the last page, are on no page (they were cited as the last). */
    @Test
    void a_pdfs_outline_is_not_cited_as_its_last_page() throws Exception {
        byte[] pdf = DocumentFixtures.pdf(List.of("Alpha section opens the report.", "Beta follows it.",
                "Gamma closes it."));
        try (var doc = org.apache.pdfbox.Loader.loadPDF(pdf); var out = new java.io.ByteArrayOutputStream()) {
            var outline = new org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline();
            var item = new org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem();
            item.setTitle("Zebra bookmark heading");
            item.setDestination(doc.getPage(0));
            outline.addLast(item);
            doc.getDocumentCatalog().setDocumentOutline(outline);
            doc.save(out);
            pdf = out.toByteArray();
        }
        ParsedDocument parsed = parse("report.pdf", pdf);
        assertThat(blockContaining(parsed, "Gamma closes").location()).isEqualTo("page 3");
        assertThat(parsed.blocks()).filteredOn(b -> b.text().contains("Zebra bookmark")).isNotEmpty().allSatisfy(b ->
                assertThat(b.location()).isNotEqualTo("page 3"));
    }

    /**
     * OpenDocument's repeated cells (two adjacent empty or equal cells are one element) keep their columns: counted as
     * one, the price sat under the wrong header; a row's trailing repetition to the sheet's edge costs nothing.
     */
    @Test
    void an_opendocument_sheets_repeated_cells_keep_their_columns() {
        String cell = "<table:table-cell><text:p>%s</text:p></table:table-cell>";
        ParsedDocument doc = parse("parts.ods", DocumentFixtures.openDocument("spreadsheet", "<table:table "
                + "table:name=\"Parts\"><table:table-row>" + String.format(cell, "Item") + String.format(cell, "Qty")
                + String.format(cell, "Note") + String.format(cell, "Price") + "</table:table-row><table:table-row>"
                + String.format(cell, "Bolt") + "<table:table-cell table:number-columns-repeated=\"2\"/>"
                + String.format(cell, "0.50") + "<table:table-cell table:number-columns-repeated=\"16380\"/>"
                + "</table:table-row><table:table-row><table:table-cell table:number-columns-repeated=\"2\">"
                + "<text:p>x</text:p></table:table-cell></table:table-row></table:table>"));
        String table = doc.blocks().stream().filter(b -> b.kind() == ChunkKind.TABLE).findFirst().orElseThrow().text();
        assertThat(table.lines().toList()).containsExactly("Item | Qty | Note | Price", "Bolt |  |  | 0.50",
                "x | x |  |");
    }

    /** A wide header over many one-cell lines: each line padded to the header's width is refused, not built. */
    @Test
    void a_csv_whose_short_rows_pad_past_the_text_limit_is_refused_not_built() {
        DocumentsParser small = new DocumentsParser(1_000_000, 60_000);
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            header.append(i == 0 ? "" : ",").append('h').append(i);
        }
        byte[] wide = (header + "\n" + "x\n".repeat(2_000)).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> small.parse(new SourceItem("test:wide.csv", "wide.csv", wide, null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("holds more than");
    }

    /** A line of commas is one record of empty cells: as a table, three times its bytes, refused past the limit. */
    @Test
    void a_csv_line_of_commas_is_refused_past_the_text_limit_not_built() {
        DocumentsParser small = new DocumentsParser(1_000_000, 60_000);
        byte[] commas = ("a,b\n" + ",".repeat(2_000_000) + "\n").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> small.parse(new SourceItem("test:c.csv", "c.csv", commas, null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("POLYRAG_INGEST_MAX_TEXT_MB");
        // Text, Markdown, HTML and code files are held to the same limit (they were decoded and parsed whole).
        for (String name : List.of("n.txt", "n.md", "n.html", "n.py")) {
            byte[] big = ("# Big\n\n" + "words and more words ".repeat(60_000)).getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> small.parse(new SourceItem("test:" + name, name, big, null))).as(name)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("more than 1000000 characters");
        }
    }

    /**
     * An export padded with separators (a used range reaching column XFD) keeps its real columns only, and rows of
     * separators alone are dropped: every row was thousands of empty cells, each chunk a line of bars.
     */
    @Test
    void a_csv_padded_with_empty_columns_and_rows_keeps_its_cells_only() {
        String pad = ",".repeat(5_000);
        ParsedDocument csv = parse("padded.csv", ("name,qty" + pad + "\nbolt,12" + pad + "\n" + pad + "\nnut,40" + pad
                + "\n").getBytes(StandardCharsets.UTF_8));
        assertThat(csv.blocks()).singleElement().satisfies(b -> assertThat(b.text()).isEqualTo(
                "name | qty\nbolt | 12\nnut | 40"));
    }

    /** A stray quote in a field ("Best" seller, as database exports write it) no longer refuses the whole file. */
    @Test
    void a_stray_quote_is_read_leniently() {
        ParsedDocument tsv = parse("items.tsv", "item\tsold\n\"Best\" seller\t5\nlamp\t3\n".getBytes(
                StandardCharsets.UTF_8));
        assertThat(tsv.blocks()).singleElement().satisfies(b -> assertThat(b.text()).contains("Best").contains("lamp"));
        ParsedDocument csv = parse("items.csv", "item,sold\n\"Best\" seller,5\nlamp,3\n".getBytes(
                StandardCharsets.UTF_8));
        assertThat(csv.blocks()).singleElement().satisfies(b -> assertThat(b.text()).contains("Best").contains("lamp"));
    }

    @Test
    void csv_becomes_a_table_and_code_a_fenced_block() {
        ParsedDocument csv = parse("ports.csv", "port,depth\nValletta,12\nPiraeus,16\n".getBytes(StandardCharsets.UTF_8));
        assertThat(csv.blocks()).anySatisfy(b -> assertThat(b.text()).contains("Valletta").contains("12"));
        ParsedDocument py = parse("tide.py", "def tide_height(hour):\n    return 2.1 * hour\n".getBytes(
                StandardCharsets.UTF_8));
        assertThat(py.blocks()).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(ChunkKind.CODE);
            assertThat(b.language()).isEqualTo("python");
            assertThat(b.text()).contains("def tide_height");
        });
        assertThat(parse("notes.md", "# Title\n\nSome *text*.".getBytes(StandardCharsets.UTF_8)).title())
                .isEqualTo("Title");
    }

    @Test
    void a_truncated_pdf_is_reported_as_corrupt() {
        byte[] pdf = DocumentFixtures.pdf(List.of("page one", "page two"));
        byte[] cut = java.util.Arrays.copyOf(pdf, pdf.length / 3);
        assertThatThrownBy(() -> parse("cut.pdf", cut)).isInstanceOf(InvalidInputException.class)
                .hasMessage("cut.pdf: not a valid PDF (corrupt or truncated); it was skipped");
    }

    @Test
    void random_bytes_named_like_a_document_are_refused_in_users_words_without_library_internals() {
        byte[] noise = new byte[3000];
        new java.util.Random(5).nextBytes(noise);
        byte[] pdfHeader = "%PDF-1.7\n1 0 obj garbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (var c : List.of(java.util.Map.entry("noise.pdf", pdfHeader), java.util.Map.entry("noise.docx", noise))) {
            assertThatThrownBy(() -> parse(c.getKey(), c.getValue())).isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith(c.getKey() + ": ").hasMessageNotContaining("TIKA-")
                    .hasMessageNotContaining("org.apache").hasMessageNotContaining("@");
        }
    }

    @Test
    void an_encrypted_document_is_reported_as_such_and_leaves_no_temporary_file() throws java.io.IOException {
        java.util.function.Supplier<java.util.Set<String>> spooled = () -> {
            try (var files = java.nio.file.Files.list(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
                return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("apache-tika-"))
                        .collect(java.util.stream.Collectors.toSet());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        java.util.Set<String> before = spooled.get();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> parse("secret.docx", DocumentFixtures.encryptedDocx("hunter2")))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("secret.docx")
                    .hasMessageContaining("encrypted");
        }
        // An OLE2 container is spooled to a temporary file to be detected; each one leaked before.
        assertThat(spooled.get()).as("temporary files left behind").isSubsetOf(before);
    }

    @Test
    void a_file_whose_extension_lies_is_judged_by_its_content() {
        assertThatThrownBy(() -> parse("invoice.pdf", DocumentFixtures.elf())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("invoice.pdf").hasMessageContaining("whatever the name says");
        ParsedDocument html = parse("page.pdf", ("<!DOCTYPE html><html><head><title>Real</title></head><body><p>An "
                + "HTML page named like a PDF.</p></body></html>").getBytes(StandardCharsets.UTF_8));
        assertThat(html.title()).isEqualTo("Real");
    }

    @Test
    void archives_and_decompression_bombs_are_refused() {
        assertThatThrownBy(() -> parse("data.zip", DocumentFixtures.zipBomb("zeros.bin", 0)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("archive");
        // Judged from its directory before its type is detected (detection inflates entries itself).
        assertThatThrownBy(() -> parse("data.zip", DocumentFixtures.zipBomb("zeros.bin", 20)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("zip bomb");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> parse("huge.docx", DocumentFixtures.expandingDocx(40)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("huge.docx");
        assertThat((System.nanoTime() - t0) / 1_000_000).as("stopped early, not after reading it all")
                .isLessThan(30_000);
    }

    @Test
    void a_zip_based_document_that_would_expand_too_far_is_refused_from_its_directory_before_parsing()
            throws java.io.IOException {
        for (var bomb : java.util.Map.of("ratio.docx", DocumentFixtures.expandingDocx(40), "shared.docx",
                DocumentFixtures.overlappingDocx(3), "parts.docx", DocumentFixtures.manyEntriesDocx(20_001))
                .entrySet()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> parse(bomb.getKey(), bomb.getValue())).as(bomb.getKey())
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining(bomb.getKey())
                    .hasMessageContaining("zip bomb");
            assertThat((System.nanoTime() - t0) / 1_000_000).as(bomb.getKey() + ": refused before any inflating")
                    .isLessThan(2_000);
        }
        assertThatThrownBy(() -> parse("shared.docx", DocumentFixtures.overlappingDocx(3)))
                .hasMessageContaining("share their compressed data");
        // The entry count is read from the directory's end record, before a single entry is listed.
        assertThat(ZipGuard.declaredEntries(DocumentFixtures.manyEntriesDocx(20_001), 20_000)).isGreaterThan(20_000);
        assertThat(ZipGuard.declaredEntries(DocumentFixtures.manyEntriesDocx(15_000), 20_000)).as("three parts and the "
                + "extra ones, not refused").isEqualTo(15_003);
        byte[] small = DocumentFixtures.docx("Small", "a few words", List.of(List.of("a", "b")));
        try (var zip = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(small))) {
            int n = 0;
            while (zip.getNextEntry() != null) {
                n++;
            }
            assertThat(ZipGuard.declaredEntries(small, 20_000)).as("exact").isEqualTo(n);
        }
        assertThat(ZipGuard.declaredEntries("not a zip".getBytes(java.nio.charset.StandardCharsets.UTF_8), 10)).isZero();
        DocumentsParser strict = new DocumentsParser(64L << 20, 60_000, 1 << 20);
        StringBuilder varied = new StringBuilder();
        for (int i = 0; varied.length() < 1_500_000; i++) {
            varied.append("word").append(Integer.toString(i * 7919, 36)).append(' ');
        }
        byte[] big = DocumentFixtures.docx("Big", varied.toString(), List.of(List.of("size", "big")));
        assertThatThrownBy(() -> strict.parse(new SourceItem("upload:big.docx", "big.docx", big, null)))
                .hasMessageContaining("expands to more than 1.0 MiB").hasMessageContaining("POLYRAG_INGEST_MAX_EXPANDED_MB");
        assertThat(parse("big.docx", big).text()).as("the same file under the default limit").contains("word0 ");
    }

    @Test
    void an_entity_bomb_does_not_expand() {
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> parse("lolz.docx", DocumentFixtures.billionLaughsDocx()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("lolz.docx");
        ParsedDocument xml = parse("lolz.xml", DocumentFixtures.billionLaughs());
        assertThat(xml.blocks()).singleElement().satisfies(b -> {
            assertThat(b.kind()).as("XML is configuration: kept as text, its entities never expanded")
                    .isEqualTo(ChunkKind.CODE);
            assertThat(b.text().length()).isLessThan(2000);
        });
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
    }

    @Test
    void too_much_text_stops_the_parse() {
        DocumentsParser small = new DocumentsParser(10_000, 60_000);
        assertThatThrownBy(() -> small.parse(new SourceItem("t:x", "long.docx", DocumentFixtures.docx("Long",
                "word ".repeat(5000), List.of(List.of("a"), List.of("b"))), null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("more than 10000 characters");
    }

    /**
     * Parses that overran their time limit hold their permits until they really end; a parse that finds every permit
     * held waits no longer than the time limit and fails, to be tried again (it waited forever before).
     */
    @Test
    void a_parse_that_finds_every_parser_busy_fails_after_the_time_limit() throws Exception {
        DocumentsParser quick = new DocumentsParser(64L << 20, 300);
        var field = DocumentsParser.class.getDeclaredField("parses");
        field.setAccessible(true);
        java.util.concurrent.Semaphore parses = (java.util.concurrent.Semaphore) field.get(quick);
        int held = parses.drainPermits();
        try {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
                    assertThatThrownBy(() -> quick.parse(new SourceItem("t:x", "memo.docx", DocumentFixtures.docx(
                            "Memo", "The lamp is lit.", List.of(List.of("a"))), null)))
                            .as("not the file's fault: unavailable, as a store or a model is")
                            .isInstanceOf(io.polyrag.core.UnavailableException.class)
                            .hasMessageContaining("every parser was still busy").hasMessageContaining("tried again"));
        } finally {
            parses.release(held);
        }
        assertThat(quick.parse(new SourceItem("t:x", "memo.docx", DocumentFixtures.docx("Memo", "The lamp is lit.",
                List.of(List.of("a"))), null)).text()).contains("The lamp is lit.");
    }

    @Test
    void names_decide_what_a_directory_walk_picks_up() {
        assertThat(parser.acceptsName("a/b/report.PDF")).isTrue();
        assertThat(parser.acceptsName("main.rs")).isTrue();
        assertThat(parser.acceptsName("Dockerfile")).isTrue();
        assertThat(parser.acceptsName("deploy/Dockerfile.dev")).isTrue();
        assertThat(parser.acceptsName("photo.jpg")).isEqualTo(parser.ocr());
        assertThat(parser.acceptsName("archive.zip")).isFalse();
        // And read as code (it was prose: sentence chunks, entities taken from its commands).
        for (String name : List.of("Dockerfile", "Dockerfile.dev")) {
            ParsedDocument d = parser.parse(new SourceItem("file:///app/" + name, name, ("FROM eclipse-temurin:21\n"
                    + "COPY app.jar /app.jar\nENTRYPOINT [\"java\", \"-jar\", \"/app.jar\"]\n")
                    .getBytes(StandardCharsets.UTF_8), null));
            assertThat(d.blocks()).as(name).allSatisfy(b -> assertThat(b.kind()).isEqualTo(ChunkKind.CODE));
        }
        // A page about Dockerfiles is a page: its headings kept.
        ParsedDocument page = parser.parse(new SourceItem("file:///docs/dockerfile.md", "dockerfile.md", ("# Writing "
                + "a Dockerfile\n\nStart from a small base image.\n").getBytes(StandardCharsets.UTF_8), null));
        assertThat(page.blocks()).anySatisfy(b -> assertThat(b.headingPath()).contains("Writing a Dockerfile"))
                .noneSatisfy(b -> assertThat(b.kind()).isEqualTo(ChunkKind.CODE));
    }

    @Test
    void images_and_scanned_pages_are_read_by_ocr_when_tesseract_is_installed() {
        org.junit.jupiter.api.Assumptions.assumeTrue(parser.ocr(),
                "Tesseract is not installed here (Debian: apt-get install tesseract-ocr); .ci/run installs it");
        ParsedDocument png = parse("scan.png", DocumentFixtures.textImage("Lighthouse keeper logbook"));
        assertThat(png.text().toLowerCase(java.util.Locale.ROOT)).contains("lighthouse").contains("logbook");
        assertThat(png.blocks().getFirst().location()).isEqualTo("image (OCR)");
        ParsedDocument pdf = parse("scanned.pdf", DocumentFixtures.scannedPdf(List.of("A typed first page.",
                "A typed second page."), 3, "Quarantine harbour inspection"));
        assertThat(blockContaining(pdf, "typed second").location()).isEqualTo("page 2");
        Block scanned = pdf.blocks().stream().filter(b -> b.text().toLowerCase(java.util.Locale.ROOT)
                .contains("harbour")).findFirst().orElseThrow(() -> new AssertionError(pdf.blocks().toString()));
        assertThat(scanned.location()).isEqualTo("page 3");
    }

    /** An SVG is refused by its type (Tesseract would not read it either); an e-mail is text, and read. */
    @Test
    void an_svg_is_refused_by_its_type_and_an_email_is_read_as_text() {
        assertThatThrownBy(() -> parse("logo.svg", ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" "
                + "height=\"10\"><rect width=\"10\" height=\"10\"/></svg>").getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("is not indexed").hasMessageNotContaining("tesseract-ocr");
        ParsedDocument mail = parse("note.eml", ("From: Ada Ferrow <ada@example.com>\r\nTo: keepers@example.com\r\n"
                + "Subject: Lamp oil\r\nDate: Mon, 7 Dec 2026 10:00:00 +0000\r\nMessage-ID: <1@example.com>\r\n"
                + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
                + "quoted-printable\r\n\r\nThe lamp oil arrives on Thursday at the caf=C3=A9.\r\n")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(mail.text()).contains("The lamp oil arrives on Thursday at the café").doesNotContain("=C3=A9");
    }

    /** One MIME part of a test mail: its headers' type and disposition, and its body, base64 encoded. */
    private static String part(String type, String disposition, byte[] body) {
        return "--b1\r\nContent-Type: " + type + "\r\n" + (disposition == null ? "" : "Content-Disposition: "
                + disposition + "\r\n") + "Content-Transfer-Encoding: base64\r\n\r\n"
                + java.util.Base64.getMimeEncoder().encodeToString(body) + "\r\n";
    }

    private static byte[] mail(String subject, String... parts) {
        return ("From: ada@example.com\r\nTo: keepers@example.com\r\nSubject: " + subject + "\r\nMIME-Version: "
                + "1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n" + String.join("", parts)
                + "--b1--\r\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void an_emails_attachments_are_read_as_files_of_their_own_under_their_names() {
        // Attachments were left out: the quarterly figures of a mail that says "see the attached report" were
        // nowhere in the index. Each is parsed with every guard a file has; a refused one leaves the rest.
        byte[] nested = mail("Fwd: tide tables", part("text/plain; charset=utf-8", null,
                "Forwarded tide tables.".getBytes(StandardCharsets.UTF_8)), part("text/plain", "attachment; "
                + "filename=\"inner.txt\"", "The inner lighthouse secret.".getBytes(StandardCharsets.UTF_8)));
        ParsedDocument m = parse("report.eml", mail("Quarterly report",
                part("text/plain; charset=utf-8", null, "See the attached report.".getBytes(StandardCharsets.UTF_8)),
                part("application/pdf", "attachment; filename=\"q3.pdf\"", DocumentFixtures.pdf(List.of(
                        "Lamp oil costs rose by nine percent.", "The fog horn was replaced in August."))),
                part("text/markdown", "attachment; filename=\"notes.md\"", "# Keepers\n\nAda keeps the north light."
                        .getBytes(StandardCharsets.UTF_8)),
                part("application/zip", "attachment; filename=\"bomb.zip\"", DocumentFixtures.zipBomb("x.txt", 20)),
                part("image/png", "inline; filename=\"logo.png\"", DocumentFixtures.textImage("LOGO")),
                part("message/rfc822", "attachment; filename=\"fwd.eml\"", nested)));
        assertThat(m.title()).isEqualTo("Quarterly report");
        assertThat(m.text()).contains("See the attached report.", "Attachment: q3.pdf", "nine percent",
                "fog horn", "Attachment: notes.md", "Ada keeps the north light", "Forwarded tide tables")
                .doesNotContain("inner lighthouse", "LOGO");
        Block page2 = blockContaining(m, "fog horn");
        assertThat(page2.location()).isEqualTo("q3.pdf, page 2");
        assertThat(page2.headingPath()).startsWith("Attachment: q3.pdf");
        assertThat(blockContaining(m, "north light").headingPath()).containsExactly("Attachment: notes.md", "Keepers");
        for (Block b : m.blocks()) {
            assertThat(m.text().substring(b.start(), b.end())).isEqualTo(b.text());
        }
        // A mail of an attachment alone (no body text) is its attachment's text; one with nothing readable is refused.
        ParsedDocument bare = parse("bare.eml", mail("Minutes", part("text/plain", "attachment; filename=\"m.txt\"",
                "The minutes of the keepers' meeting.".getBytes(StandardCharsets.UTF_8))));
        assertThat(bare.text()).contains("keepers' meeting");
        assertThatThrownBy(() -> parse("empty.eml", mail("Nothing", part("application/zip",
                "attachment; filename=\"a.zip\"", DocumentFixtures.zipBomb("x.txt", 1)))))
                .hasMessageContaining("no text to index");
    }

    @Test
    void without_tesseract_an_image_is_refused_naming_the_package() {
        org.junit.jupiter.api.Assumptions.assumeFalse(parser.ocr(), "Tesseract is installed here");
        assertThatThrownBy(() -> parse("scan.png", DocumentFixtures.textImage("x")))
                .hasMessageContaining("tesseract-ocr");
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> formats() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("ledger.xls", DocumentFixtures.xls("Ledger",
                        List.of(List.of("Account", "Owner"), List.of("Cormorant", "Ines")))
                        , "Cormorant", ChunkKind.TABLE, "sheet Ledger"),
                org.junit.jupiter.params.provider.Arguments.of("memo.rtf", DocumentFixtures.rtf(
                        "The kelp forest survey starts at dawn."), "kelp forest", ChunkKind.PROSE, ""),
                org.junit.jupiter.params.provider.Arguments.of("book.epub", DocumentFixtures.epub("Chapter One",
                        "The albatross glided over the southern ocean."), "albatross", ChunkKind.PROSE, ""),
                org.junit.jupiter.params.provider.Arguments.of("letter.odt", DocumentFixtures.openDocument("text",
                        "<text:h text:outline-level=\"1\">Dear reader</text:h><text:p>The narwhal migration "
                                + "begins in spring.</text:p>"), "narwhal", ChunkKind.PROSE, ""),
                org.junit.jupiter.params.provider.Arguments.of("sheet.ods", DocumentFixtures.openDocument(
                        "spreadsheet", "<table:table table:name=\"Tides\"><table:table-row><table:table-cell>"
                                + "<text:p>Harbour</text:p></table:table-cell><table:table-cell><text:p>Height</text:p>"
                                + "</table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>"
                                + "Portsoy</text:p></table:table-cell><table:table-cell><text:p>4.1</text:p>"
                                + "</table:table-cell></table:table-row></table:table>"), "Portsoy", ChunkKind.TABLE,
                        "sheet Tides"),
                org.junit.jupiter.params.provider.Arguments.of("talk.odp", DocumentFixtures.openDocument(
                        "presentation", "<draw:page draw:name=\"p1\"><draw:frame><draw:text-box><text:p>Welcome"
                                + "</text:p></draw:text-box></draw:frame></draw:page><draw:page draw:name=\"p2\">"
                                + "<draw:frame><draw:text-box><text:p>Puffin colonies doubled</text:p></draw:text-box>"
                                + "</draw:frame></draw:page>"), "Puffin", ChunkKind.PROSE, null),
                org.junit.jupiter.params.provider.Arguments.of("depths.tsv", "port\tdepth\nValletta\t12\n"
                        .getBytes(StandardCharsets.UTF_8), "Valletta | 12", ChunkKind.TABLE, ""),
                org.junit.jupiter.params.provider.Arguments.of("page.html", "<html><body><nav>Menu</nav><h1>Reef</h1>"
                        .concat("<p>Coral spawning happens after the full moon.</p><script>x()</script></body></html>")
                        .getBytes(StandardCharsets.UTF_8), "Coral spawning", ChunkKind.PROSE, ""),
                org.junit.jupiter.params.provider.Arguments.of("config.yaml", "# moorings\nharbour:\n  berths: 12\n"
                        .getBytes(StandardCharsets.UTF_8), "berths", ChunkKind.CODE, ""));
    }

    /**
     * One file of each remaining type: the phrase is found, in a block of the right kind and location. (Tika's
     * OpenDocument parser does not mark slides, so .odp blocks carry no location.)
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("formats")
    void every_format_yields_its_text(String name, byte[] bytes, String phrase, ChunkKind kind, String location) {
        ParsedDocument doc = parse(name, bytes);
        Block b = blockContaining(doc, phrase);
        assertThat(b.kind()).as(doc.blocks().toString()).isEqualTo(kind);
        if (location != null) {
            assertThat(b.location()).isEqualTo(location);
        }
        assertThat(doc.text()).doesNotContain("Menu").doesNotContain("x()");
    }

    @Test
    void a_document_or_a_binary_named_as_text_is_still_judged_by_its_content() {
        ParsedDocument pdf = parse("notes.md", DocumentFixtures.pdf(List.of("Tide tables for the harbour.")));
        assertThat(pdf.mediaType()).isEqualTo("application/pdf");
        assertThat(pdf.text()).contains("Tide tables");
        ParsedDocument rtf = parse("letter.txt", DocumentFixtures.rtf("Dear keeper, the lamp is lit."));
        assertThat(rtf.mediaType()).isEqualTo("application/rtf");
        assertThatThrownBy(() -> parse("readme.md", DocumentFixtures.elf())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("unsupported type");
        // Declared as HTML and text by its bytes: parsed as HTML without Tika's detection.
        ParsedDocument html = parser.parse(new SourceItem("web:x", "x", "<html><head><title>Foghorns</title></head>"
                .concat("<body><p>The horn sounds twice a minute.</p></body></html>").getBytes(StandardCharsets.UTF_8),
                "text/html"));
        assertThat(html.title()).isEqualTo("Foghorns");
        assertThat(html.text()).contains("twice a minute");
    }

    /** A PDF's attachment is not parsed (nor an archive in it): only the document's own text is indexed. */
    @Test
    void a_pdfs_attachments_are_not_parsed() throws Exception {
        byte[] pdf;
        try (org.apache.pdfbox.pdmodel.PDDocument doc = org.apache.pdfbox.Loader.loadPDF(DocumentFixtures.pdf(
                List.of("The harbour log for March.")));
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream()) {
            var file = new org.apache.pdfbox.pdmodel.common.filespecification.PDEmbeddedFile(doc,
                    new java.io.ByteArrayInputStream("Zanzibarite notes from the attachment.".getBytes(
                            StandardCharsets.UTF_8)));
            file.setSubtype("text/plain");
            var spec = new org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification();
            spec.setFile("notes.txt");
            spec.setEmbeddedFile(file);
            var tree = new org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode();
            tree.setNames(java.util.Map.of("notes.txt", spec));
            var names = new org.apache.pdfbox.pdmodel.PDDocumentNameDictionary(doc.getDocumentCatalog());
            names.setEmbeddedFiles(tree);
            doc.getDocumentCatalog().setNames(names);
            doc.save(out);
            pdf = out.toByteArray();
        }
        ParsedDocument parsed = parse("log.pdf", pdf);
        assertThat(parsed.text()).contains("harbour log").doesNotContain("Zanzibarite");
    }

    /**
     * An OpenDocument or EPUB file whose directory understates an entry's size (the JDK's zip and Commons Compress,
     * which their parsers read through, trust it) is refused once it inflates past what it declares.
     */
    @Test
    void an_opendocument_or_epub_entry_inflating_past_its_declared_size_is_refused() throws Exception {
        byte[] odt = lying("application/vnd.oasis.opendocument.text", "content.xml");
        assertThatThrownBy(() -> parse("lying.odt", odt)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("lying.odt").hasMessageContaining("inflates past the size it declares");
        byte[] epub = lying("application/epub+zip", "OEBPS/ch1.xhtml");
        assertThatThrownBy(() -> parse("lying.epub", epub)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("lying.epub").hasMessageContaining("inflates past the size it declares");
        // An entry named as Office Open XML's own does not make it one: judged by the detected type.
        byte[] dressed = lying("application/vnd.oasis.opendocument.text", "content.xml", true);
        assertThatThrownBy(() -> parse("dressed.odt", dressed)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("dressed.odt").hasMessageContaining("inflates past the size it declares");
    }

    private static byte[] lying(String mediaType, String entry) throws Exception {
        return lying(mediaType, entry, false);
    }

    private static byte[] lying(String mediaType, String entry, boolean contentTypes) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
            byte[] type = mediaType.getBytes(StandardCharsets.US_ASCII);
            java.util.zip.ZipEntry mimetype = new java.util.zip.ZipEntry("mimetype");
            mimetype.setMethod(java.util.zip.ZipEntry.STORED);
            mimetype.setSize(type.length);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(type);
            mimetype.setCrc(crc.getValue());
            zip.putNextEntry(mimetype);
            zip.write(type);
            zip.closeEntry();
            if (mediaType.contains("epub")) {
                zip.putNextEntry(new java.util.zip.ZipEntry("META-INF/container.xml"));
                zip.write(("<?xml version=\"1.0\"?><container version=\"1.0\" xmlns=\"urn:oasis:names:tc:"
                        + "opendocument:xmlns:container\"><rootfiles><rootfile full-path=\"OEBPS/content.opf\" "
                        + "media-type=\"application/oebps-package+xml\"/></rootfiles></container>")
                        .getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
            if (contentTypes) {
                zip.putNextEntry(new java.util.zip.ZipEntry("[Content_Types].xml"));
                zip.closeEntry();
            }
            zip.putNextEntry(new java.util.zip.ZipEntry(entry));
            zip.write("<office:document-content><office:body><office:text>".getBytes(StandardCharsets.UTF_8));
            byte[] tags = "<text:s/>".repeat(100_000).getBytes(StandardCharsets.UTF_8);
            for (int k = 0; k < 20; k++) {
                zip.write(tags);
            }
            zip.write("</office:text></office:body></office:document-content>".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        byte[] doc = bytes.toByteArray();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(doc).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        byte[] name = entry.getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at + 46 + name.length < doc.length; at++) { // the entry's central header: declare 1,000 bytes
            if (b.getInt(at) == 0x02014b50 && java.util.Arrays.equals(doc, at + 46, at + 46 + name.length, name, 0,
                    name.length)) {
                b.putInt(at + 24, 1000);
            }
        }
        return doc;
    }
}
