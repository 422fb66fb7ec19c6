package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Block;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.xml.sax.ContentHandler;

/**
 * The attachments of one e-mail: kept as bytes while Tika reads the mail (none of them parsed inside that parse, where
 * nothing would guard them), then each parsed as a file of its own by the whole parser, with every guard a file has
 * (type, zip bomb, text and time limits, parse permits), and appended under "Attachment: name". An attachment that is
 * refused (an archive, an image without OCR, an encrypted file) is left out and logged; the mail is still indexed.
 * A mail attached to a mail is read without its own attachments: one level, no recursion.
 */
final class MailAttachments implements EmbeddedDocumentExtractor {
    /** The most attachments one mail has read; more are left out. */
    static final int MAX_COUNT = 50;

    private static final ThreadLocal<Boolean> INSIDE = ThreadLocal.withInitial(() -> false);

    private record Attachment(String name, byte[] content, String mediaType) {
    }

    private final String mail;
    private final long maxBytes;
    private final List<Attachment> kept = new ArrayList<>();
    private final List<String> left = new ArrayList<>();
    private long held;

    /**
     * @param mail the mail's name, for the log
     * @param maxBytes most bytes all its attachments may hold together (decoded, they are no larger than the mail)
     */
    private MailAttachments(String mail, long maxBytes) {
        this.mail = mail;
        this.maxBytes = maxBytes;
    }

    /** A collector for a mail being parsed; none (attachments skipped) for a mail that is itself an attachment. */
    static MailAttachments forMail(SourceItem item) {
        return INSIDE.get() ? null : new MailAttachments(item.name(), item.content().length);
    }

    @Override
    public boolean shouldParseEmbedded(Metadata metadata) {
        // Pictures shown in the body (Content-Disposition: inline, cid: references) are not attachments.
        return !TikaCoreProperties.EmbeddedResourceType.INLINE.toString()
                .equals(metadata.get(TikaCoreProperties.EMBEDDED_RESOURCE_TYPE));
    }

    @Override
    public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata, boolean outputHtml)
            throws IOException {
        String name = metadata.get(TikaCoreProperties.RESOURCE_NAME_KEY);
        name = name == null || name.isBlank() ? "attachment " + (kept.size() + left.size() + 1) : name.strip();
        if (kept.size() >= MAX_COUNT) {
            left.add(name + " (more than " + MAX_COUNT + " attachments)");
            return;
        }
        byte[] content = stream.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes - held + 1));
        if (held + content.length > maxBytes) {
            left.add(name + " (larger than the mail itself)");
            return;
        }
        held += content.length;
        String type = metadata.get(Metadata.CONTENT_TYPE);
        kept.add(new Attachment(name, content, type == null ? null : type.split(";", 2)[0].strip()));
    }

    /**
     * The mail with each attachment that parses appended under its own heading, within {@code maxChars} of text and
     * started before {@code deadline} (epoch millis); {@code parse} is the whole parser. A parser too busy to take an
     * attachment fails the mail (tried again as a whole); any other refusal leaves that attachment out.
     */
    ParsedDocument appendTo(ParsedDocument body, SourceItem item, Function<SourceItem, ParsedDocument> parse,
            long maxChars, long deadline) {
        StringBuilder text = new StringBuilder(body.text());
        List<Block> blocks = new ArrayList<>(body.blocks());
        for (Attachment a : kept) {
            if (System.currentTimeMillis() > deadline) {
                left.add(a.name() + " (the mail's parse time ran out)");
                continue;
            }
            ParsedDocument doc;
            INSIDE.set(true);
            try {
                doc = parse.apply(new SourceItem(item.uri(), a.name(), a.content(), a.mediaType()));
            } catch (InvalidInputException e) {
                left.add(a.name() + " (" + e.getMessage() + ")");
                continue;
            } finally {
                INSIDE.set(false);
            }
            String heading = "Attachment: " + a.name();
            if (text.length() + heading.length() + doc.text().length() + 4 > maxChars) {
                left.add(a.name() + " (past the text limit, POLYRAG_INGEST_MAX_TEXT_MB)");
                continue;
            }
            text.append(text.isEmpty() ? "" : "\n\n").append(heading).append("\n\n");
            int shift = text.length();
            text.append(doc.text());
            for (Block b : doc.blocks()) {
                List<String> path = new ArrayList<>();
                path.add(heading);
                path.addAll(b.headingPath());
                blocks.add(new Block(b.kind(), b.text(), path, b.start() + shift, b.end() + shift, b.language(),
                        b.location().isEmpty() ? a.name() : a.name() + ", " + b.location()));
            }
        }
        if (!left.isEmpty()) {
            System.getLogger(DocumentsParser.class.getName()).log(System.Logger.Level.INFO, mail
                    + ": attachments not indexed: " + String.join("; ", left));
        }
        return new ParsedDocument(body.title(), text.toString(), blocks, body.mediaType(), body.links());
    }
}
