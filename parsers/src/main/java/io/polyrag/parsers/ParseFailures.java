package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.SourceItem;
import java.io.IOException;
import java.util.Locale;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.ZeroByteFileException;
import org.xml.sax.SAXException;

/** Why a document could not be parsed, in users' words: encrypted, too much text, a zip bomb, empty, corrupt. */
final class ParseFailures {
    private ParseFailures() {
    }

    /**
     * A clear reason, in users' words, for whatever the parse threw; the library's own message (class names, object
     * ids, issue numbers) goes to the log only.
     */
    static InvalidInputException failure(SourceItem item, String type, Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof EncryptedDocumentException
                    || c.getClass().getName().endsWith("EncryptedDocumentException")
                    || c.getClass().getName().endsWith("InvalidPasswordException")) {
                return new InvalidInputException(item.name() + ": encrypted (password protected); it was skipped");
            }
            if (c instanceof TikaXhtmlHandler.TooMuchText) {
                return new InvalidInputException(item.name() + ": holds " + c.getMessage() + " (raise "
                        + "POLYRAG_INGEST_MAX_TEXT_MB to ingest it)");
            }
            // POI says it with a plain IOException ("Zip bomb detected! …") for an entry lying about its size.
            if (c.getClass().getSimpleName().equals("ZipBombException")
                    || c instanceof SAXException && String.valueOf(c.getMessage()).contains("Suspected zip bomb")
                    || c instanceof IOException && String.valueOf(c.getMessage()).startsWith("Zip bomb detected")) {
                return new InvalidInputException(item.name() + ": expands far beyond its size when decompressed "
                        + "(a zip bomb); it was skipped");
            }
            if (c instanceof ZeroByteFileException) {
                return new InvalidInputException(item.name() + ": empty");
            }
            // Worded as the estimate words them (IngestEstimator.unparseable) and docs/formats.md promises.
            if (c instanceof OutOfMemoryError) {
                return new InvalidInputException(item.name() + ": too large to be parsed in this server's memory");
            }
            if (c instanceof StackOverflowError) {
                return new InvalidInputException(item.name() + ": nested too deeply to be parsed");
            }
        }
        System.getLogger(DocumentsParser.class.getName()).log(System.Logger.Level.INFO, item.name() + " (" + type
                + ") could not be parsed: " + t);
        return new InvalidInputException(item.name() + ": not a valid " + kindName(type) + " (corrupt or truncated); "
                + "it was skipped");
    }

    /** What users call a file of this media type. */
    static String kindName(String type) {
        String t = type == null ? "" : type.toLowerCase(Locale.ROOT);
        if (t.contains("pdf")) {
            return "PDF";
        }
        if (t.contains("wordprocessing") || t.contains("msword") || t.contains("opendocument.text")) {
            return "word-processing document";
        }
        if (t.contains("spreadsheet") || t.contains("excel")) {
            return "spreadsheet";
        }
        if (t.contains("presentation") || t.contains("powerpoint")) {
            return "presentation";
        }
        if (t.contains("epub")) {
            return "EPUB book";
        }
        if (t.contains("rtf")) {
            return "RTF document";
        }
        if (t.startsWith("image/")) {
            return "image";
        }
        return "file of type " + (t.isEmpty() ? "unknown" : t);
    }
}
