package io.polyrag.parsers;

import io.polyrag.core.model.ChunkKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Turns the XHTML that Apache Tika emits for any format into polyrag blocks: headings into the heading path,
 * paragraphs and list items into prose, tables into rows of {@code a | b | c} with the header row first, {@code pre}
 * into code, and page, slide and sheet boundaries into each block's location.
 *
 * <p>Tika marks a PDF page as {@code <div class="page">}, a presentation slide as {@code <div
 * class="slide-content">}, and a spreadsheet sheet as {@code <div class="sheet">} (OpenDocument: {@code page})
 * opening with an {@code <h1>} of the sheet's name; the {@link Layout} says which one a document uses. Text beyond {@code maxChars} stops the parse with
 * a clear error rather than filling memory.
 */
final class TikaXhtmlHandler extends DefaultHandler {
    /** How a format divides into parts. */
    enum Layout {
        PAGES, SLIDES, SHEETS, FLOW, IMAGE
    }

    /** Thrown when a document holds more text than allowed. */
    static final class TooMuchText extends SAXException {
        TooMuchText(long limit) {
            super("more than " + limit + " characters of text");
        }
    }

    private final DocumentBuilder doc;
    private final Layout layout;
    private final long maxChars;
    private long chars;
    private int part;
    private int skipDepth;
    private int heading;
    private boolean sheetNamePending;
    private final StringBuilder buffer = new StringBuilder();
    private boolean inPre;
    private List<List<String>> table;
    private List<String> row;
    private StringBuilder cell;
    /**
     * The columns the open cell spans ({@code colspan}: OpenDocument's repeated and spanned cells), and the empty
     * cells of this row not added yet: added only before a cell with text, so a sheet's trailing "repeated 16,384
     * times" costs nothing. Counted as one cell, a row "Bolt, (2 empty), 0.50" put the price under the wrong header.
     */
    private int span = 1;
    private int emptyPending;
    private int tableDepth;
    /** Open {@code div}s, and the depth of the open page's (0: none), to tell where a page ends. */
    private int divDepth;
    private int pageDiv;
    private final List<String> sheetNames;
    private int nextSheet;

    TikaXhtmlHandler(DocumentBuilder doc, Layout layout, long maxChars) {
        this(doc, layout, maxChars, List.of());
    }

    /**
     * @param sheetNames the sheets' names in order, for spreadsheets whose XHTML does not mark sheets (OpenDocument:
     *     one top-level table per sheet)
     */
    TikaXhtmlHandler(DocumentBuilder doc, Layout layout, long maxChars, List<String> sheetNames) {
        this.doc = doc;
        this.layout = layout;
        this.maxChars = maxChars;
        this.sheetNames = List.copyOf(sheetNames);
        if (layout == Layout.IMAGE) {
            doc.location("image (OCR)");
        }
    }

    // style: one SAX switch over the XHTML elements Tika emits
    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
        stopIfInterrupted();
        String el = name(localName, qName);
        if (skipDepth > 0 || el.equals("head") || el.equals("script") || el.equals("style")) {
            skipDepth++;
            return;
        }
        String cls = atts.getValue("class") == null ? "" : atts.getValue("class");
        switch (el) {
            case "div" -> {
                divDepth++;
                if (cls.equals("page") && layout == Layout.PAGES) {
                    flush();
                    part++;
                    pageDiv = divDepth;
                    doc.location("page " + part);
                } else if ((cls.equals("sheet") || cls.equals("page")) && layout == Layout.SHEETS) {
                    flush();
                    part++;
                    doc.resetHeadings();
                    sheetNamePending = true;
                    doc.location("sheet " + part);
                } else if (cls.equals("slide-content") && layout == Layout.SLIDES) {
                    flush();
                    part++;
                    doc.resetHeadings();
                    doc.location("slide " + part);
                }
            }
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                if (table == null) {
                    flush();
                    heading = el.charAt(1) - '0';
                }
            }
            case "p", "li", "br", "blockquote", "dt", "dd" -> {
                if (table == null) {
                    flush();
                }
            }
            case "pre" -> {
                if (table == null) {
                    flush();
                    inPre = true;
                }
            }
            case "table" -> {
                if (tableDepth++ == 0) {
                    flush();
                    table = new ArrayList<>();
                    if (layout == Layout.SHEETS && part == 0 && nextSheet < sheetNames.size()) {
                        doc.resetHeadings();
                        doc.location("sheet " + sheetNames.get(nextSheet++));
                    }
                }
            }
            case "tr" -> {
                if (tableDepth == 1) {
                    row = new ArrayList<>();
                    emptyPending = 0;
                }
            }
            case "td", "th" -> {
                if (tableDepth == 1) {
                    cell = new StringBuilder();
                    span = span(atts.getValue("colspan"));
                }
            }
            default -> {
            }
        }
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        String el = name(localName, qName);
        if (skipDepth > 0) {
            skipDepth--;
            return;
        }
        switch (el) {
            case "div" -> {
                if (divDepth-- == pageDiv && pageDiv > 0) {
                    // Past a page's end: what a PDF's parser writes after the last one (its bookmarks, its form
                    // fields' values) is on no page, and was cited as the last page.
                    flush();
                    pageDiv = 0;
                    doc.location("");
                }
            }
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                if (table == null && heading > 0) {
                    String title = clean(buffer.toString());
                    buffer.setLength(0);
                    if (sheetNamePending && !title.isEmpty()) {
                        doc.location("sheet " + title);
                        sheetNamePending = false;
                    }
                    doc.heading(heading, title);
                    heading = 0;
                }
            }
            case "p", "li", "blockquote", "dt", "dd" -> {
                if (table == null) {
                    flush();
                }
            }
            case "pre" -> {
                if (table == null) {
                    doc.block(ChunkKind.CODE, buffer.toString(), "");
                    buffer.setLength(0);
                    inPre = false;
                }
            }
            case "td", "th" -> {
                if (tableDepth == 1 && row != null && cell != null) {
                    endCell();
                }
            }
            case "tr" -> {
                if (tableDepth == 1 && row != null) {
                    if (row.stream().anyMatch(c -> !c.isEmpty())) {
                        table.add(row);
                    }
                    row = null;
                }
            }
            case "table" -> {
                if (--tableDepth == 0) {
                    emitTable();
                }
            }
            default -> {
            }
        }
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
        stopIfInterrupted();
        if (skipDepth > 0) {
            return;
        }
        charge(length);
        if (cell != null) {
            cell.append(ch, start, length);
        } else if (table == null) {
            buffer.append(ch, start, length);
        }
    }

    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
        characters(ch, start, length);
    }

    @Override
    public void endDocument() throws SAXException {
        flush();
        if (table != null) {
            emitTable();
        }
    }

    /** The open cell into its row, in each column it spans; an empty one waits for a cell with text after it. */
    private void endCell() throws TooMuchText {
        String c = clean(cell.toString());
        cell = null;
        if (c.isEmpty()) {
            emptyPending += span;
            return;
        }
        // A cell costs its separator in the table's text, an empty one before it too: a sheet of empty cells up to
        // column XFD is text, not free; a copy of a spanned cell costs its text.
        charge(3L * (emptyPending + span) + (long) c.length() * (span - 1));
        for (; emptyPending > 0; emptyPending--) {
            row.add("");
        }
        for (int k = 0; k < span; k++) {
            row.add(c.replace("|", "\\|"));
        }
    }

    /** The columns a cell spans, as written, from 1 to 1,024 (a hostile span of a million is 1,024). */
    private static int span(String colspan) {
        try {
            return colspan == null ? 1 : Math.clamp(Integer.parseInt(colspan.strip()), 1, 1024);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * Ends a parse whose time ran out (the waiting side interrupts it): Tika and PDFBox do not look at the interrupt,
     * and a parse left running held its parse permit until it ended, hours later for a long OCR; once every permit was
     * held so, every later file was refused as "every parser was still busy". Asked at each element and each run of
     * text, the parse stops at its next piece of output.
     */
    private static void stopIfInterrupted() throws SAXException {
        if (Thread.currentThread().isInterrupted()) {
            throw new SAXException("the parse was stopped: its time limit had passed");
        }
    }

    private void charge(long n) throws TooMuchText {
        chars += n;
        if (chars > maxChars) {
            throw new TooMuchText(maxChars);
        }
    }

    private void flush() {
        if (inPre) {
            return;
        }
        String text = clean(buffer.toString());
        buffer.setLength(0);
        if (!text.isEmpty()) {
            doc.prose(text);
        }
    }

    /**
     * The table as rows of cells joined by {@code |}, every row as wide as the widest. Columns empty in every row are
     * left out (a spreadsheet with one cell in column XFD pads every row to 16,384 cells otherwise), and the padding
     * counts against the text limit: a small file cannot make a table of hundreds of millions of characters.
     */
    private void emitTable() throws TooMuchText {
        List<List<String>> rows = table;
        table = null;
        if (rows == null || rows.isEmpty()) {
            return;
        }
        long padding = 0;
        int kept = Tables.usedColumns(rows);
        for (List<String> r : rows) {
            padding += Math.max(0, kept - r.size());
        }
        charge(3 * padding);
        String t = Tables.text(rows);
        doc.block(ChunkKind.TABLE, t, "");
    }

    /** Whitespace runs collapsed to one space, so line-wrapped PDF text reads as sentences. */
    private static String clean(String s) {
        return s.replaceAll("[\\s\\u00a0]+", " ").strip();
    }

    private static String name(String localName, String qName) {
        return (localName == null || localName.isEmpty() ? qName : localName).toLowerCase(Locale.ROOT);
    }
}
