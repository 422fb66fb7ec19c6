package io.polyrag.testing;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xssf.usermodel.XSSFRow;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;

/**
 * Documents of every common type, made by the tests themselves (nothing downloaded, no binaries checked in), and
 * hostile ones: truncated, encrypted, lying about their type, decompression bombs, entity bombs.
 */
public final class DocumentFixtures {
    private DocumentFixtures() {
    }

    /** A PDF with one paragraph per page, in order. */
    public static byte[] pdf(List<String> pages) {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (String text : pages) {
                PDPage page = new PDPage();
                doc.addPage(page);
                try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                    s.beginText();
                    s.setFont(font, 12);
                    s.newLineAtOffset(72, 700);
                    s.showText(text);
                    s.endText();
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Word document: a heading, a paragraph, and a table whose first row is its header. */
    public static byte[] docx(String heading, String paragraph, List<List<String>> table) {
        try (XWPFDocument doc = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            var style = org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle.Factory.newInstance();
            style.setStyleId("Heading1");
            style.addNewName().setVal("heading 1");
            style.setType(org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType.PARAGRAPH);
            doc.createStyles().addStyle(new org.apache.poi.xwpf.usermodel.XWPFStyle(style));
            XWPFParagraph h = doc.createParagraph();
            h.setStyle("Heading1");
            h.createRun().setText(heading);
            doc.createParagraph().createRun().setText(paragraph);
            XWPFTable t = doc.createTable(table.size(), table.getFirst().size());
            for (int r = 0; r < table.size(); r++) {
                for (int c = 0; c < table.get(r).size(); c++) {
                    t.getRow(r).getCell(c).setText(table.get(r).get(c));
                }
            }
            doc.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A presentation with one text box per slide, in order. */
    public static byte[] pptx(List<String> slides) {
        try (XMLSlideShow show = new XMLSlideShow(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (String text : slides) {
                XSLFSlide slide = show.createSlide();
                XSLFTextBox box = slide.createTextBox();
                box.setAnchor(new java.awt.Rectangle(50, 50, 600, 300));
                box.setText(text);
            }
            show.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A workbook with one sheet: a header row, then rows; the last column of each data row is a formula (the
     * product of the two numeric columns before it), saved with its computed value.
     */
    public static byte[] xlsx(String sheetName, List<String> header, List<List<Object>> rows) {
        try (XSSFWorkbook wb = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSSFSheet sheet = wb.createSheet(sheetName);
            XSSFRow h = sheet.createRow(0);
            for (int c = 0; c < header.size(); c++) {
                h.createCell(c).setCellValue(header.get(c));
            }
            for (int r = 0; r < rows.size(); r++) {
                XSSFRow row = sheet.createRow(r + 1);
                List<Object> values = rows.get(r);
                for (int c = 0; c < values.size(); c++) {
                    Object v = values.get(c);
                    if (v instanceof Number n) {
                        row.createCell(c).setCellValue(n.doubleValue());
                    } else {
                        row.createCell(c).setCellValue(String.valueOf(v));
                    }
                }
                int n = values.size();
                String a = org.apache.poi.ss.util.CellReference.convertNumToColString(n - 2) + (r + 2);
                String b = org.apache.poi.ss.util.CellReference.convertNumToColString(n - 1) + (r + 2);
                row.createCell(n).setCellFormula(a + "*" + b);
            }
            wb.getCreationHelper().createFormulaEvaluator().evaluateAll();
            wb.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A legacy Excel (.xls) workbook with one sheet of a header row and rows. */
    public static byte[] xls(String sheetName, List<List<String>> rows) {
        try (var wb = new org.apache.poi.hssf.usermodel.HSSFWorkbook(); ByteArrayOutputStream out =
                new ByteArrayOutputStream()) {
            var sheet = wb.createSheet(sheetName);
            for (int r = 0; r < rows.size(); r++) {
                var row = sheet.createRow(r);
                for (int c = 0; c < rows.get(r).size(); c++) {
                    row.createCell(c).setCellValue(rows.get(r).get(c));
                }
            }
            wb.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An RTF document: a paragraph of plain text. */
    public static byte[] rtf(String text) {
        return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times;}}\\f0\\fs24 " + text + "\\par}")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** An EPUB 3 book with one chapter: a heading and a paragraph. */
    public static byte[] epub(String chapterTitle, String paragraph) {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            mimetype(zip, "application/epub+zip");
            put(zip, "META-INF/container.xml", "<?xml version=\"1.0\"?><container version=\"1.0\" xmlns=\"urn:oasis:"
                    + "names:tc:opendocument:xmlns:container\"><rootfiles><rootfile full-path=\"OEBPS/content.opf\" "
                    + "media-type=\"application/oebps-package+xml\"/></rootfiles></container>");
            put(zip, "OEBPS/content.opf", "<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" "
                    + "version=\"3.0\" unique-identifier=\"id\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
                    + "<dc:identifier id=\"id\">x</dc:identifier><dc:title>A Book</dc:title><dc:language>en"
                    + "</dc:language></metadata><manifest><item id=\"c1\" href=\"c1.xhtml\" media-type=\"application/"
                    + "xhtml+xml\"/></manifest><spine><itemref idref=\"c1\"/></spine></package>");
            put(zip, "OEBPS/c1.xhtml", "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head>"
                    + "<title>c1</title></head><body><h1>" + chapterTitle + "</h1><p>" + paragraph + "</p></body></html>");
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An OpenDocument file ({@code text}, {@code spreadsheet} or {@code presentation}) whose content.xml body is
     * {@code body} (the elements inside {@code office:text}, {@code office:spreadsheet} or
     * {@code office:presentation}).
     */
    public static byte[] openDocument(String kind, String body) {
        String mime = "application/vnd.oasis.opendocument." + kind;
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            mimetype(zip, mime);
            put(zip, "META-INF/manifest.xml", "<?xml version=\"1.0\"?><manifest:manifest xmlns:manifest=\"urn:oasis:"
                    + "names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\"><manifest:file-entry "
                    + "manifest:full-path=\"/\" manifest:media-type=\"" + mime + "\"/><manifest:file-entry "
                    + "manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/></manifest:manifest>");
            put(zip, "content.xml", "<?xml version=\"1.0\"?><office:document-content xmlns:office=\"urn:oasis:names:tc:"
                    + "opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
                    + "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" xmlns:draw=\"urn:oasis:names:"
                    + "tc:opendocument:xmlns:drawing:1.0\" xmlns:presentation=\"urn:oasis:names:tc:opendocument:"
                    + "xmlns:presentation:1.0\" office:version=\"1.2\"><office:body><office:" + kind + ">" + body
                    + "</office:" + kind + "></office:body></office:document-content>");
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Word document encrypted with {@code password} (agile encryption, as Office does). */
    public static byte[] encryptedDocx(String password) {
        byte[] plain = docx("Secret", "Nobody may read this.", List.of(List.of("a", "b"), List.of("1", "2")));
        try (POIFSFileSystem fs = new POIFSFileSystem(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            EncryptionInfo info = new EncryptionInfo(EncryptionMode.agile);
            Encryptor enc = info.getEncryptor();
            enc.confirmPassword(password);
            try (OutputStream os = enc.getDataStream(fs)) {
                os.write(plain);
            }
            fs.writeFilesystem(out);
            return out.toByteArray();
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A PDF whose pages are text pages, except page {@code scannedPage} (1-based), which is only a picture of
     * {@code scannedText}: no text layer, as a scanner makes it.
     */
    public static byte[] scannedPdf(List<String> textPages, int scannedPage, String scannedText) {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            int n = textPages.size() + 1;
            int t = 0;
            for (int p = 1; p <= n; p++) {
                PDPage page = new PDPage();
                doc.addPage(page);
                try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                    if (p == scannedPage) {
                        var image = org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory.createFromImage(doc,
                                image(scannedText));
                        s.drawImage(image, 20, 500, 570, 82);
                    } else {
                        s.beginText();
                        s.setFont(font, 12);
                        s.newLineAtOffset(72, 700);
                        s.showText(textPages.get(t++));
                        s.endText();
                    }
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PNG of black text on white, large enough for OCR to read. */
    public static byte[] textImage(String text) {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(image(text), "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static BufferedImage image(String text) {
        BufferedImage img = new BufferedImage(1400, 200, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 48));
        g.drawString(text, 40, 120);
        g.dispose();
        return img;
    }

    /** A zip holding one entry of {@code megabytes} MiB of zeros: a few kilobytes that expand a thousandfold. */
    public static byte[] zipBomb(String entryName, int megabytes) {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry(entryName));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < megabytes; i++) {
                zip.write(zeros);
            }
            zip.closeEntry();
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Word document whose body is a huge run of one repeated word, compressed to almost nothing. */
    public static byte[] expandingDocx(int megabytes) {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            docxParts(zip);
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(("<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/"
                    + "wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>").getBytes(StandardCharsets.UTF_8));
            byte[] words = "spam ".repeat(200_000).getBytes(StandardCharsets.UTF_8);
            for (long written = 0; written < (long) megabytes << 20; written += words.length) {
                zip.write(words);
            }
            zip.write("</w:t></w:r></w:p></w:body></w:document>".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parts a Word package needs besides its body: content types and the relationship to word/document.xml. */
    private static void docxParts(ZipOutputStream zip) throws IOException {
            put(zip, "[Content_Types].xml", "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/"
                    + "package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd."
                    + "openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application"
                    + "/xml\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-"
                    + "officedocument.wordprocessingml.document.main+xml\"/></Types>");
            put(zip, "_rels/.rels", "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/"
                    + "package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org"
                    + "/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/>"
                    + "</Relationships>");
    }

    /** An uncompressed first entry naming the package's media type, as EPUB and OpenDocument require. */
    private static void mimetype(ZipOutputStream zip, String mediaType) throws IOException {
        ZipEntry entry = new ZipEntry("mimetype");
        entry.setMethod(ZipEntry.STORED);
        byte[] m = mediaType.getBytes(StandardCharsets.US_ASCII);
        entry.setSize(m.length);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(m);
        entry.setCrc(crc.getValue());
        zip.putNextEntry(entry);
        zip.write(m);
        zip.closeEntry();
    }

    private static void put(ZipOutputStream zip, String name, String content) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(content.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }

    /** A Word document whose body declares the "billion laughs" entities. */
    public static byte[] billionLaughsDocx() {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            docxParts(zip);
            String lolz = new String(billionLaughs(), StandardCharsets.UTF_8).replace("<lolz>&lol9;</lolz>",
                    "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>"
                            + "<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>").replace("<!DOCTYPE lolz",
                    "<!DOCTYPE w:document");
            put(zip, "word/document.xml", lolz);
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The XML "billion laughs": ten levels of entities, each ten of the one below. */
    public static byte[] billionLaughs() {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
        for (int i = 1; i <= 9; i++) {
            s.append("<!ENTITY lol").append(i).append(" \"");
            for (int j = 0; j < 10; j++) {
                s.append("&lol").append(i == 1 ? "" : String.valueOf(i - 1)).append(';');
            }
            s.append("\">\n");
        }
        s.append("]>\n<lolz>&lol9;</lolz>\n");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The first bytes of a Linux executable. */
    public static byte[] elf() {
        byte[] b = new byte[4096];
        b[0] = 0x7f;
        b[1] = 'E';
        b[2] = 'L';
        b[3] = 'F';
        b[4] = 2;
        b[5] = 1;
        b[6] = 1;
        return b;
    }
}
