package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;

/** Comma- and tab-separated files, each read as one table. */
final class Delimited {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private Delimited() {
    }

    /**
     * CSV or TSV as one table, header row first (commons-csv: quotes, embedded separators and newlines); columns and
     * rows empty throughout left out ({@link Tables}). A file the strict reading refuses (a stray quote in a field,
     * {@code "Best" seller}, as database exports write them) is read again leniently: a TSV without quoting, a CSV
     * allowing text after a closing quote; one stray quote refused the whole file.
     */
    static ParsedDocument parse(SourceItem item, boolean tabs, long maxChars) {
        String source = TextDecoder.decode(item.content(), item.name());
        CSVFormat strict = (tabs ? CSVFormat.TDF : CSVFormat.DEFAULT).builder().setIgnoreEmptyLines(true).get();
        List<List<String>> rows;
        try {
            rows = records(item, source, strict, maxChars);
        } catch (InvalidInputException e) {
            if (!e.getMessage().contains("corrupt or truncated")) {
                throw e;
            }
            rows = records(item, source, tabs ? strict.builder().setQuote(null).get()
                    : strict.builder().setTrailingData(true).setLenientEof(true).get(), maxChars);
        }
        // The cells were counted as read; the rows shorter than the widest are padded in the table's text.
        if (Tables.length(rows) > maxChars) {
            throw new InvalidInputException(item.name() + ": holds more than " + maxChars + " characters of text as "
                    + "a table (its short rows padded to its widest) (raise POLYRAG_INGEST_MAX_TEXT_MB to ingest it)");
        }
        DocumentBuilder doc = new DocumentBuilder();
        doc.block(ChunkKind.TABLE, Tables.text(rows), "");
        if (doc.isEmpty()) {
            throw new InvalidInputException(item.name() + ": no text to index (the file is empty)");
        }
        return doc.build(TextFormatsParser.stem(item.name()), tabs ? "text/tab-separated-values" : "text/csv");
    }

    private static List<List<String>> records(SourceItem item, String source, CSVFormat format, long maxChars) {
        List<List<String>> rows = new ArrayList<>();
        long chars = 0;
        try (var records = CSVParser.parse(source, format)) {
            for (var r : records) {
                List<String> row = new ArrayList<>(r.size());
                // Counted cell by cell, a separator as three characters: a line of 60 million commas is one record
                // of empty cells, and as a table three times the text limit.
                for (int i = 0; i < r.size(); i++) {
                    String c = r.get(i);
                    String cell = c.isEmpty() ? c : WHITESPACE.matcher(c).replaceAll(" ").strip().replace("|", "\\|");
                    chars += cell.length() + 3;
                    if (chars > maxChars) {
                        throw new InvalidInputException(item.name() + ": holds more than " + maxChars
                                + " characters of text (raise POLYRAG_INGEST_MAX_TEXT_MB to ingest it)");
                    }
                    row.add(cell);
                }
                rows.add(row);
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            throw new InvalidInputException(item.name() + ": corrupt or truncated, cannot be parsed ("
                    + e.getMessage() + ")");
        }
        return rows;
    }
}
