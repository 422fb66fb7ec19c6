// style(file): test data: one small maker per format and per hostile file, found in one place by every parser test
package io.polyrag.testing;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.color.PDDeviceGray;
import org.apache.pdfbox.pdmodel.graphics.color.PDDeviceRGB;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.openxml4j.exceptions.InvalidFormatException;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.sl.usermodel.PictureData;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.util.Units;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xssf.usermodel.XSSFRow;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.Document;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType;

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
            var style = CTStyle.Factory.newInstance();
            style.setStyleId("Heading1");
            style.addNewName().setVal("heading 1");
            style.setType(STStyleType.PARAGRAPH);
            doc.createStyles().addStyle(new XWPFStyle(style));
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
                box.setAnchor(new Rectangle(50, 50, 600, 300));
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
                String a = CellReference.convertNumToColString(n - 2) + (r + 2);
                String b = CellReference.convertNumToColString(n - 1) + (r + 2);
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
        try (var wb = new HSSFWorkbook(); ByteArrayOutputStream out =
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
        } catch (IOException | GeneralSecurityException e) {
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
                        var image = LosslessFactory.createFromImage(doc,
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

    /**
     * A Word document with {@code copies} more directory entries pointing at its body's compressed data: the
     * overlapping-files construction of zip bombs (each entry innocent alone, together a multiple of the file).
     */
    public static byte[] overlappingDocx(int copies) {
        byte[] zip = docx("Overlap", "A paragraph whose compressed bytes are shared by other entries.",
                List.of(List.of("part", "shared")));
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = zip.length - 22;
        while (b.getInt(eocd) != 0x06054b50) {
            eocd--;
        }
        int cdSize = b.getInt(eocd + 12);
        int cdOffset = b.getInt(eocd + 16);
        int entries = b.getShort(eocd + 10) & 0xffff;
        // The body's central header, to copy under other names.
        int at = cdOffset;
        int body = -1;
        for (int i = 0; i < entries; i++) {
            int nameLength = b.getShort(at + 28) & 0xffff;
            String name = new String(zip, at + 46, nameLength, StandardCharsets.UTF_8);
            if (name.equals("word/document.xml")) {
                body = at;
            }
            at += 46 + nameLength + (b.getShort(at + 30) & 0xffff) + (b.getShort(at + 32) & 0xffff);
        }
        int headerLength = 46 + "word/document.xml".length() + (b.getShort(body + 30) & 0xffff)
                + (b.getShort(body + 32) & 0xffff);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(zip, 0, cdOffset + cdSize);
        for (int i = 0; i < copies; i++) {
            byte[] copy = Arrays.copyOfRange(zip, body, body + headerLength);
            byte[] name = String.format(Locale.ROOT, "word/copy%04d.xml", i).getBytes(
                    StandardCharsets.UTF_8);
            System.arraycopy(name, 0, copy, 46, name.length); // same length as word/document.xml
            out.write(copy, 0, copy.length);
        }
        ByteBuffer end = ByteBuffer.wrap(Arrays.copyOfRange(zip, eocd, zip.length))
                .order(ByteOrder.LITTLE_ENDIAN);
        end.putShort(8, (short) (entries + copies));
        end.putShort(10, (short) (entries + copies));
        end.putInt(12, cdSize + copies * headerLength);
        out.write(end.array(), 0, end.array().length);
        return out.toByteArray();
    }

    /** A Word document with {@code extra} more (tiny) entries than its parts. */
    public static byte[] manyEntriesDocx(int extra) {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ZipOutputStream zip = new ZipOutputStream(out)) {
            docxParts(zip);
            put(zip, "word/document.xml", "<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas."
                    + "openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>Many parts</w:t></w:r>"
                    + "</w:p></w:body></w:document>");
            for (int i = 0; i < extra; i++) {
                put(zip, "customXml/item" + i + ".xml", "<x/>");
            }
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
        CRC32 crc = new CRC32();
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

    // ---------------------------------------------------------------- figures

    /** A bar chart as a PNG: one labelled bar per value, a title above, as a plotting library draws one. */
    public static byte[] chartPng(String title, List<String> labels, List<Integer> values) {
        BufferedImage img = new BufferedImage(800, 500, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 36));
        g.drawString(title, 40, 60);
        g.drawLine(80, 440, 760, 440);
        g.drawLine(80, 440, 80, 100);
        int max = values.stream().mapToInt(Integer::intValue).max().orElse(1);
        int width = 600 / Math.max(1, values.size());
        Color[] colours = {new Color(0x2b6cb0), new Color(0xc05621), new Color(0x2f855a), new Color(0x6b46c1)};
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 30));
        for (int i = 0; i < values.size(); i++) {
            int h = 320 * values.get(i) / max;
            g.setColor(colours[i % colours.length]);
            g.fillRect(100 + i * width, 440 - h, width - 30, h);
            g.setColor(Color.BLACK);
            g.drawString(labels.get(i), 100 + i * width, 480);
        }
        g.dispose();
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(img, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void text(PDPageContentStream s, PDType1Font font, float size, float x, float y, String text)
            throws IOException {
        s.beginText();
        s.setFont(font, size);
        s.newLineAtOffset(x, y);
        s.showText(text);
        s.endText();
    }

    /**
     * A three-page report with figures: page 1 has prose that refers to "Figure 1" and a bar chart drawn in vector
     * graphics (bars, axes, labels) captioned "Figure 1: Quarterly sales by region"; page 2 has an embedded PNG
     * chart captioned "Figure 2: Staff turnover at the Leeds warehouse"; every page carries the same small logo in a
     * corner (repeated, so not a figure).
     */
    public static byte[] figuresPdf() {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            var logo = LosslessFactory.createFromImage(doc,
                    ImageIO.read(new ByteArrayInputStream(chartPng("L", List.of("a"),
                            List.of(1)))));
            var chart = LosslessFactory.createFromImage(doc,
                    ImageIO.read(new ByteArrayInputStream(chartPng("Turnover",
                            List.of("2023", "2024", "2025"), List.of(18, 11, 7)))));
            for (int p = 1; p <= 3; p++) {
                PDPage page = new PDPage();
                doc.addPage(page);
                try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                    s.drawImage(logo, 520, 740, 40, 25);
                    if (p == 1) {
                        text(s, font, 16, 72, 720, "Regional sales report");
                        text(s, font, 11, 72, 690, "Sales grew fastest in the northern region this year, as Figure 1");
                        text(s, font, 11, 72, 676, "shows; the southern region stayed flat for the third quarter.");
                        // The chart: two axes and four bars with their labels.
                        s.setLineWidth(1);
                        s.moveTo(100, 420);
                        s.lineTo(100, 620);
                        s.stroke();
                        s.moveTo(100, 420);
                        s.lineTo(420, 420);
                        s.stroke();
                        int[] bars = {170, 90, 120, 60};
                        String[] names = {"North", "South", "East", "West"};
                        for (int i = 0; i < bars.length; i++) {
                            s.setNonStrokingColor(new Color(0x2b6cb0 + i * 0x202000));
                            s.addRect(120 + i * 75, 420, 50, bars[i]);
                            s.fill();
                            s.setNonStrokingColor(Color.BLACK);
                            text(s, font, 9, 122 + i * 75, 408, names[i]);
                        }
                        text(s, font, 10, 100, 380, "Figure 1: Quarterly sales by region, in thousands of euros");
                        text(s, font, 11, 72, 330, "The northern stores opened two new branches in March.");
                    } else if (p == 2) {
                        text(s, font, 16, 72, 720, "Staffing");
                        text(s, font, 11, 72, 690, "Staff turnover at the Leeds warehouse fell every year since the");
                        text(s, font, 11, 72, 676, "new shift rota began.");
                        s.drawImage(chart, 100, 380, 360, 225);
                        text(s, font, 10, 100, 362, "Figure 2: Staff turnover at the Leeds warehouse, percent");
                    } else {
                        text(s, font, 16, 72, 720, "Outlook");
                        text(s, font, 11, 72, 690, "Next year the company plans to open a depot in Bristol.");
                    }
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A two-slide presentation: slide 1 titled "Customer churn" with prose referring to Figure 1, a PNG line of bars
     * (the chart) and, under it, the caption "Figure 1: Monthly churn rate after the loyalty programme"; slide 2 text.
     */
    public static byte[] figuresPptx() {
        try (XMLSlideShow show = new XMLSlideShow(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSLFSlide slide = show.createSlide();
            XSLFTextBox title = slide.createTextBox();
            title.setAnchor(new Rectangle(40, 20, 640, 40));
            title.setText("Customer churn");
            XSLFTextBox prose = slide.createTextBox();
            prose.setAnchor(new Rectangle(40, 70, 640, 50));
            prose.setText("Churn fell steadily once the loyalty programme started, see Figure 1.");
            var data = show.addPicture(chartPng("Churn", List.of("Jan", "Feb", "Mar", "Apr"), List.of(9, 7, 5, 4)),
                    PictureData.PictureType.PNG);
            var picture = slide.createPicture(data);
            picture.setAnchor(new Rectangle(120, 130, 400, 250));
            XSLFTextBox caption = slide.createTextBox();
            caption.setAnchor(new Rectangle(120, 385, 480, 30));
            caption.setText("Figure 1: Monthly churn rate after the loyalty programme");
            XSLFSlide second = show.createSlide();
            XSLFTextBox next = second.createTextBox();
            next.setAnchor(new Rectangle(40, 40, 640, 300));
            next.setText("Next steps: extend the programme to business customers in the autumn.");
            show.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Word document: prose that refers to Figure 1, a PNG picture, then its caption paragraph, then more prose. */
    public static byte[] figuresDocx() {
        try (XWPFDocument doc = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            doc.createParagraph().createRun().setText("The pump assembly has four parts, shown in Figure 1.");
            var run = doc.createParagraph().createRun();
            byte[] png = chartPng("Pump", List.of("A", "B", "C", "D"), List.of(4, 3, 2, 1));
            run.addPicture(new ByteArrayInputStream(png), Document.PICTURE_TYPE_PNG,
                    "pump.png", Units.toEMU(320), Units.toEMU(200));
            doc.createParagraph().createRun().setText("Figure 1: Exploded view of the pump assembly");
            doc.createParagraph().createRun().setText("Maintenance intervals are listed in the appendix.");
            doc.write(out);
            return out.toByteArray();
        } catch (IOException | InvalidFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A hostile PDF: {@code images} distinct images (each 64 × 64 pixels, drawn 40 points wide) over pages of 100,
     * each page with a line of text.
     */
    public static byte[] manyImagesPdf(int images) {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int first = 0; first < images; first += 100) {
                PDPage page = new PDPage();
                doc.addPage(page);
                try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                    text(s, font, 11, 72, 760, "Catalogue page " + (first / 100 + 1) + " of stock photographs.");
                    for (int i = first; i < Math.min(images, first + 100); i++) {
                        BufferedImage img = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
                        Graphics2D g = img.createGraphics();
                        g.setColor(new Color(i * 2654435 & 0xFFFFFF));
                        g.fillRect(0, 0, 64, 64);
                        g.dispose();
                        var x = LosslessFactory.createFromImage(doc, img);
                        int k = i - first;
                        s.drawImage(x, 20 + (k % 10) * 57, 40 + (k / 10) * 70, 40, 40);
                    }
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A hostile PDF with a line of text and four images that cannot be shown: one that claims to be 20,000 × 20,000
     * pixels (its data is a few bytes), one of 100 × 100 whose soft mask claims as much, a JPEG whose data is garbage,
     * and a JPEG the PDF calls 100 × 100 whose own header says 25,000 × 25,000.
     */
    public static byte[] hostileImagesPdf() {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDPage page = new PDPage();
            doc.addPage(page);
            var huge = new PDImageXObject(doc,
                    new ByteArrayInputStream(new byte[64]), COSName.FLATE_DECODE, 20_000,
                    20_000, 8, PDDeviceRGB.INSTANCE);
            byte[] garbage = new byte[4096];
            new Random(7).nextBytes(garbage);
            garbage[0] = (byte) 0xFF;
            garbage[1] = (byte) 0xD8;
            var corrupt = new PDImageXObject(doc,
                    new ByteArrayInputStream(garbage), COSName.DCT_DECODE, 300, 200, 8,
                    PDDeviceRGB.INSTANCE);
            // A JPEG that the PDF says is 100 x 100 but whose own header says 25,000 x 25,000 (what it would decode to).
            byte[] lying = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xC0, 0x00, 0x11, 0x08, 0x61, (byte) 0xA8,
                0x61, (byte) 0xA8, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, (byte) 0xFF,
                (byte) 0xD9};
            var liar = new PDImageXObject(doc,
                    new ByteArrayInputStream(lying), COSName.DCT_DECODE, 100, 100, 8,
                    PDDeviceRGB.INSTANCE);
            // A 100 x 100 image whose soft mask claims 20,000 x 20,000: PDFBox decodes the mask at its own size.
            var masked = new PDImageXObject(doc, new ByteArrayInputStream(new byte[64]), COSName.FLATE_DECODE, 100,
                    100, 8, PDDeviceRGB.INSTANCE);
            var mask = new PDImageXObject(doc, new ByteArrayInputStream(new byte[64]), COSName.FLATE_DECODE, 20_000,
                    20_000, 8, PDDeviceGray.INSTANCE);
            masked.getCOSObject().setItem(COSName.SMASK, mask.getCOSObject());
            try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                text(s, font, 11, 72, 740, "The inspection photographs could not be reproduced in this copy.");
                s.drawImage(huge, 72, 400, 300, 300);
                s.drawImage(masked, 400, 400, 100, 100);
                s.drawImage(corrupt, 72, 100, 300, 200);
                s.drawImage(liar, 400, 100, 150, 150);
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An image-only PDF of {@code pages} pages, each one scanned page (a full-page picture, no text layer). */
    public static byte[] imageOnlyPdf(int pages) {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            var scan = LosslessFactory.createFromImage(doc, image("scan"));
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage();
                doc.addPage(page);
                try (PDPageContentStream s = new PDPageContentStream(doc, page)) {
                    s.drawImage(scan, 0, 0, page.getMediaBox().getWidth(), page.getMediaBox().getHeight());
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
