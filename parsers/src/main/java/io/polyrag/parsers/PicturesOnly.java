package io.polyrag.parsers;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.tika.detect.Detector;
import org.apache.tika.extractor.ParsingEmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.ParseContext;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

/**
 * What a file with no text of its own (pasted scans in a Word or PowerPoint file) has parsed of what it embeds: its
 * pictures, OCR'd, judged by their bytes and at most {@link #MAX} of them; never an embedded document, OLE object or
 * archive. Letting Tika parse everything embedded there reached the gzip bombs and nested files the first pass skips,
 * and indexed an embedded document's text as the outer file's.
 */
final class PicturesOnly extends ParsingEmbeddedDocumentExtractor {
    /** Most pictures OCR'd in one file. */
    static final int MAX = 20;

    private final Detector detector;
    private final AtomicInteger parsed = new AtomicInteger();

    PicturesOnly(ParseContext context, Detector detector) {
        super(context);
        this.detector = detector;
    }

    @Override
    public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata, boolean outputHtml)
            throws SAXException, IOException {
        TikaInputStream in = TikaInputStream.get(stream);
        String type = detector.detect(in, new Metadata()).getBaseType().toString();
        if (type.startsWith("image/") && parsed.incrementAndGet() <= MAX) {
            super.parseEmbedded(in, handler, metadata, outputHtml);
        }
    }
}
