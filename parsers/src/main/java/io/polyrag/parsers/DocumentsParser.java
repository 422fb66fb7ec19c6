package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.tika.config.TikaConfig;
import org.apache.tika.detect.Detector;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.microsoft.OfficeParserConfig;
import org.apache.tika.parser.ocr.TesseractOCRConfig;
import org.apache.tika.parser.ocr.TesseractOCRParser;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.xml.sax.ContentHandler;

/**
 * Every common document format: PDF (page by page), Word, PowerPoint (slide by slide), Excel and OpenDocument
 * spreadsheets (sheet by sheet, tables with their header row), OpenDocument text and presentations, RTF, EPUB, CSV
 * and TSV through Apache Tika; Markdown, HTML and plain text through the text parsers; source code and configuration
 * files as fenced code. The type is detected from the content (an extension that lies does not matter) with the name
 * as a hint.
 *
 * <p>Hostile input is bounded: a parse that runs past the time limit is abandoned, text beyond the character limit
 * stops it, Tika's zip-bomb guard stops decompression that expands too far, archives are refused rather than
 * unpacked, and embedded documents are not parsed. Each failure is an {@link InvalidInputException} naming the file
 * and the reason: encrypted, corrupt or truncated, too much text, too slow, unsupported type.
 */
public final class DocumentsParser implements Parser {
    /** Source and configuration files, by extension, and the language their fence names. */
    static final Map<String, String> CODE = Map.ofEntries(Map.entry("java", "java"), Map.entry("kt", "kotlin"),
            Map.entry("scala", "scala"), Map.entry("py", "python"), Map.entry("js", "javascript"),
            Map.entry("mjs", "javascript"), Map.entry("ts", "typescript"), Map.entry("tsx", "tsx"),
            Map.entry("jsx", "jsx"), Map.entry("go", "go"), Map.entry("rs", "rust"), Map.entry("c", "c"),
            Map.entry("h", "c"), Map.entry("cc", "cpp"), Map.entry("cpp", "cpp"), Map.entry("hpp", "cpp"),
            Map.entry("cs", "csharp"), Map.entry("rb", "ruby"), Map.entry("php", "php"), Map.entry("swift", "swift"),
            Map.entry("sh", "bash"), Map.entry("bash", "bash"), Map.entry("sql", "sql"), Map.entry("yaml", "yaml"),
            Map.entry("yml", "yaml"), Map.entry("json", "json"), Map.entry("toml", "toml"), Map.entry("ini", "ini"),
            Map.entry("properties", "properties"), Map.entry("gradle", "groovy"), Map.entry("dockerfile", "docker"),
            Map.entry("proto", "protobuf"), Map.entry("lua", "lua"), Map.entry("r", "r"), Map.entry("xml", "xml"),
            Map.entry("xsd", "xml"), Map.entry("pom", "xml"));
    /** Extensions handed to Tika. */
    static final Set<String> DOCUMENTS = Set.of("pdf", "docx", "doc", "pptx", "ppt", "xlsx", "xls", "ods", "odt",
            "odp", "rtf", "epub", "csv", "tsv");
    private static final Set<String> IMAGE_EXTENSIONS = Set.of("png", "jpg", "jpeg", "tif", "tiff", "bmp", "gif");
    private static final Set<String> OCR_IMAGES = Set.of("image/png", "image/jpeg", "image/tiff", "image/bmp",
            "image/gif", "image/x-ms-bmp");
    private static final Set<String> ARCHIVES = Set.of("application/zip", "application/gzip", "application/x-gzip",
            "application/x-tar", "application/x-7z-compressed", "application/x-rar-compressed",
            "application/vnd.rar", "application/x-bzip2", "application/x-xz", "application/java-archive");

    private final TextFormatsParser text;

    @Override
    public List<String> links(SourceItem item) {
        return text.links(item);
    }
    private final AutoDetectParser tika;
    private final Detector detector;
    private final long maxChars;
    private final long timeoutMs;
    private final boolean ocr;
    private final long maxExpandedBytes;
    /**
     * Tika parses running at once, one per core: each may hold a document's expanded form in memory, so uploads
     * arriving together are parsed in turn instead of all at once (three zip bombs at once filled the heap).
     */
    private final Semaphore parses = new Semaphore(Math.max(1,
            Runtime.getRuntime().availableProcessors()));
    private final ExecutorService workers = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("polyrag-parse-", 0).factory());

    /**
     * @param maxChars most characters of text one document may yield
     * @param timeoutMs longest one parse may take
     */
    public DocumentsParser(long maxChars, long timeoutMs) {
        this(maxChars, timeoutMs, 1L << 30);
    }

    /**
     * @param maxChars most characters of text one document may yield
     * @param timeoutMs longest one parse may take
     * @param maxExpandedBytes most a zip-based document may expand to ({@link ZipGuard})
     */
    public DocumentsParser(long maxChars, long timeoutMs, long maxExpandedBytes) {
        TikaConfig config = TikaConfig.getDefaultConfig();
        this.tika = new AutoDetectParser(config);
        this.detector = config.getDetector();
        this.maxChars = maxChars;
        this.text = new TextFormatsParser(maxChars);
        this.timeoutMs = timeoutMs;
        this.maxExpandedBytes = maxExpandedBytes;
        this.ocr = tesseractInstalled();
    }

    /** Whether Tesseract (Debian's {@code tesseract-ocr}) is on the PATH, so images and scans can be read. */
    static boolean tesseractInstalled() {
        try {
            return new TesseractOCRParser().hasTesseract();
        } catch (Exception | LinkageError e) {
            return false;
        }
    }

    /** Whether this parser can read images and scanned PDFs. */
    @Override
    public boolean ocr() {
        return ocr;
    }

    @Override
    public ParsedDocument parse(SourceItem item) {
        String ext = dockerfile(item.name()) ? "dockerfile" : TextFormatsParser.extension(item.name());
        if (plainText(item, ext)) {
            // Declared or named as text, and text by its bytes: Tika's magic detection (a third of a full-text-only
            // ingest of web pages) would only say so again.
            return text.parse(item);
        }
        // A zip's directory judged before Tika's detection, which inflates and parses [Content_Types].xml and the
        // like itself, with no limit of its own.
        try {
            ZipGuard.check(item, maxExpandedBytes, MAX_ZIP_ENTRIES, false);
        } catch (InvalidInputException e) {
            if (DOCUMENTS.contains(ext)) {
                throw e;
            }
            // Not named as a document: most likely an archive, which raising the expansion limit would not help.
            throw new InvalidInputException(item.name() + ": an archive (or a zip bomb) of more or larger files than a "
                    + "document holds; archives are not unpacked: extract the files and ingest them");
        }
        String detected = detect(item);
        if (isText(detected) && CODE.containsKey(ext)) {
            return code(item, CODE.get(ext));
        }
        if (isText(detected) && (ext.equals("csv") || ext.equals("tsv") || detected.equals("text/csv")
                || detected.equals("text/tab-separated-values"))) {
            return Delimited.parse(item, ext.equals("tsv") || detected.equals("text/tab-separated-values"), maxChars);
        }
        if (isText(detected) && !isDocument(detected) && !DOCUMENTS.contains(ext) && !detected.startsWith("image/")
                || detected.equals("text/html") || detected.equals("application/xhtml+xml")
                || detected.equals("text/markdown")) {
            // Read as what it was found to be: a .tex, .org or .srt file is text by its bytes, and the text parser,
            // judging by the name again, refused it as an unsupported type.
            String as = detected.equals("application/xhtml+xml") ? "text/html" : detected.equals("text/html")
                    || detected.equals("text/markdown") ? detected : "text/plain";
            boolean known = TextFormatsParser.knows(item.mediaType(), ext);
            return text.parse(known ? item : new SourceItem(item.uri(), item.name(), item.content(), as,
                    item.title()));
        }
        if (detected.equals("application/mbox")) {
            throw new InvalidInputException(item.name() + ": a mailbox (mbox); its messages are not split here: "
                    + "export them as .eml files and ingest those");
        }
        if (ARCHIVES.contains(detected)) {
            throw new InvalidInputException(item.name() + ": an archive (" + detected + "); archives are not "
                    + "unpacked: extract the files and ingest them");
        }
        if (detected.startsWith("image/")) {
            // Said by type first: an SVG or a WebP was told to install Tesseract, which does not read them either.
            if (!OCR_IMAGES.contains(detected)) {
                throw new InvalidInputException(item.name() + ": an image (" + detected + ") is not indexed: only "
                        + "images OCR reads (png, jpeg, tiff, bmp, gif) are");
            }
            if (!ocr) {
                throw new InvalidInputException(item.name() + ": an image (" + detected + ") needs OCR, which needs "
                        + "Tesseract: install Debian's tesseract-ocr package (or your platform's) and restart");
            }
            return tika(item, detected);
        }
        if (detected.contains("protected") || detected.contains("encrypted")) {
            throw new InvalidInputException(item.name() + ": encrypted (password protected); it was skipped");
        }
        if (!isDocument(detected)) {
            throw new InvalidInputException(item.name() + ": unsupported type (the content is " + detected
                    + ", whatever the name says)");
        }
        ZipGuard.check(item, maxExpandedBytes, MAX_ZIP_ENTRIES, detected);
        return tika(item, detected);
    }

    /** More entries than any real Office or EPUB file has; a document with more is refused before it is parsed. */
    static final int MAX_ZIP_ENTRIES = 20_000;

    @Override
    public Figures figures(SourceItem item, String mediaType, FigureLimits limits) {
        if (limits.mode() == FigureMode.SKIP || !FigureExtractor.handles(mediaType)) {
            return Figures.NONE;
        }
        try {
            ZipGuard.check(item, maxExpandedBytes, MAX_ZIP_ENTRIES, mediaType);
        } catch (InvalidInputException e) {
            return new Figures(List.of(), List.of("figures: " + e.getMessage()), true);
        }
        FigureExtractor extractor = new FigureExtractor(ocr ? this::ocrText : null);
        // Its own deadline returns what was found in time; this one stops a file that never yields control.
        FigureLimits bounded = new FigureLimits(limits.mode(), limits.maxCount(), limits.maxBytes(),
                Math.min(limits.timeoutMs(), timeoutMs));
        Future<Figures> run = workers.submit(() -> extractor.extract(item.content(), mediaType, bounded));
        try {
            // Twice its own deadline: an OCR call started just before it may still finish.
            return run.get(2 * bounded.timeoutMs() + 5_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            return new Figures(List.of(), List.of("figures: extraction took longer than " + bounded.timeoutMs() / 1000
                    + " s and was stopped; the text is indexed without figures"), true);
        } catch (InterruptedException e) {
            run.cancel(true);
            Thread.currentThread().interrupt();
            return Figures.NONE;
        } catch (ExecutionException e) {
            System.getLogger(DocumentsParser.class.getName()).log(System.Logger.Level.INFO, item.name()
                    + ": figure extraction failed: " + e.getCause());
            return new Figures(List.of(), List.of("figures: could not be extracted ("
                    + (e.getCause() instanceof OutOfMemoryError ? "not enough memory" : "an unreadable image")
                    + "); the text is indexed without figures"), true);
        }
    }

    @Override
    public boolean hasFigures(String mediaType) {
        return FigureExtractor.handles(mediaType);
    }

    /** The text Tesseract reads in an image; empty when it reads none. */
    private String ocrText(byte[] image) {
        try {
            return tika(new SourceItem("figure:", "figure.png", image, null), detect(new SourceItem("figure:",
                    "figure", image, null))).text();
        } catch (RuntimeException e) {
            return "";
        }
    }

    /**
     * Whether an item is plain text, Markdown or HTML without asking Tika: declared as one of them or named so (not a
     * source file, which is fenced as code), and its first 8 KiB hold no NUL byte and no document signature (a PDF,
     * RTF or zip named .md still goes to detection, like any binary, which has NUL bytes).
     */
    /** A Dockerfile (or Dockerfile.dev, a Containerfile) has no extension of its own: named as its language. */
    private static boolean dockerfile(String name) {
        String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
                .toLowerCase(Locale.ROOT);
        // dockerfile.dev is one; dockerfile.md (a page about them) and a crawled page saved as dockerfile.html not.
        String rest = base.startsWith("dockerfile.") ? base.substring(base.lastIndexOf('.') + 1) : null;
        return base.equals("dockerfile") || base.equals("containerfile") || rest != null && !CODE.containsKey(rest)
                && !DOCUMENTS.contains(rest) && !TextFormatsParser.knows(null, rest);
    }

    private boolean plainText(SourceItem item, String ext) {
        if (CODE.containsKey(ext) || DOCUMENTS.contains(ext)) {
            return false;
        }
        String raw = item.mediaType() == null ? "" : item.mediaType().toLowerCase(Locale.ROOT);
        String declared = (raw.indexOf(';') < 0 ? raw : raw.substring(0, raw.indexOf(';'))).strip();
        if (!text.mediaTypes().contains(declared) && !(declared.isEmpty() && text.acceptsName(item.name()))) {
            return false;
        }
        byte[] b = item.content();
        int n = Math.min(b.length, 8192);
        for (int i = 0; i < n; i++) {
            if (b[i] == 0) {
                return false;
            }
        }
        String head = new String(b, 0, Math.min(n, 16), StandardCharsets.ISO_8859_1);
        return !head.startsWith("%PDF") && !head.startsWith("{\\rtf") && !head.startsWith("PK");
    }

    private static boolean isText(String type) {
        // TeX and subtitles are text Tika names as application/*: refused as binaries before.
        return type.startsWith("text/") || type.equals("application/json") || type.equals("application/x-sh")
                || type.equals("application/x-tex") || type.equals("application/x-latex")
                || type.equals("application/x-subrip")
                || type.equals("application/sql") || type.equals("application/javascript")
                || type.equals("application/xml") || type.endsWith("+xml") && !type.contains("openxmlformats");
    }

    /** The formats handed to Tika: documents only; any other binary is refused by content. */
    private static boolean isDocument(String type) {
        // An e-mail (.eml): Tika decodes its text and HTML parts (base64, quoted-printable, encoded headers).
        return type.equals("message/rfc822")
                || type.equals("application/pdf") || type.startsWith("application/vnd.openxmlformats-officedocument.")
                || type.startsWith("application/vnd.ms-excel") || type.startsWith("application/vnd.ms-powerpoint")
                || type.equals("application/msword") || type.startsWith("application/vnd.oasis.opendocument.")
                || type.equals("application/rtf") || type.equals("text/rtf") || type.equals("application/epub+zip")
                || type.equals("text/csv") || type.equals("text/tab-separated-values")
                || type.equals("application/x-tika-msoffice") || type.equals("application/x-tika-ooxml")
                || type.startsWith("application/vnd.ms-word");
    }

    /** The content's media type, with the name as a hint only. */
    String detect(SourceItem item) {
        Metadata m = new Metadata();
        m.set(TikaCoreProperties.RESOURCE_NAME_KEY, item.name());
        // Closed, so the temporary file an OLE2 container's detection spools to is deleted (it leaked before: one
        // file per encrypted Office document).
        try (TikaInputStream in = TikaInputStream.get(item.content())) {
            MediaType t = detector.detect(in, m);
            return t.getBaseType().toString().toLowerCase(Locale.ROOT);
        } catch (IOException e) {
            throw new InvalidInputException(item.name() + ": cannot read it (" + e.getMessage() + ")");
        } catch (RuntimeException | LinkageError e) {
            // Found by fuzzing: a ZIP entry compressed with zstd (method 93) sent Tika's container detection to a
            // codec that is not on the class path, and a NoClassDefFoundError escaped the parser.
            throw new InvalidInputException(item.name() + ": cannot tell what it is (" + (e instanceof LinkageError
                    ? "it uses an encoding polyrag does not read: " + e.getMessage() : e.toString()) + ")");
        }
    }

    /** A source file as one code block, within the text limit (a code file was decoded whole whatever its size). */
    private ParsedDocument code(SourceItem item, String language) {
        String source = TextFormatsParser.withinLimit(TextDecoder.decode(item.content(), item.name()), item.name(),
                maxChars);
        DocumentBuilder doc = new DocumentBuilder();
        doc.block(ChunkKind.CODE, source, language);
        if (doc.isEmpty()) {
            throw new InvalidInputException(item.name() + ": no text to index (the file is empty)");
        }
        return doc.build(item.name().substring(Math.max(item.name().lastIndexOf('/'), item.name().lastIndexOf('\\'))
                + 1), "text/x-" + language);
    }

    private ParsedDocument tika(SourceItem item, String type) {
        // Embedded documents are never parsed: a PDF's attachments, an Office file's OLE objects, an archive inside
        // either (a gzip bomb attached to a 20 KB PDF held a parse slot for hours, past every guard, as Tika parses
        // what it is given recursively). A presentation or Word file's pictures are its figures (FigureExtractor,
        // with their slide and OCR text); only a file with no text of its own (pasted scans) has them OCR'd in.
        try {
            return tika(item, type, true);
        } catch (InvalidInputException e) {
            if (!ocr || !FigureExtractor.handles(type) || type.equals("application/pdf")
                    || !String.valueOf(e.getMessage()).contains("no text to index")) {
                throw e;
            }
        }
        return tika(item, type, false);
    }

    private ParsedDocument tika(SourceItem item, String type, boolean skipEmbedded) {
        long started = System.currentTimeMillis();
        MailAttachments attachments = type.equals("message/rfc822") ? MailAttachments.forMail(item) : null;
        DocumentBuilder doc = new DocumentBuilder();
        TikaXhtmlHandler.Layout layout = layout(type);
        Metadata metadata = new Metadata();
        metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, item.name());
        try {
            // Bounded: parses that overran their limit keep their permits until they really end (they cannot be
            // stopped), and once every permit is held so, waiting without a limit hung every later parse.
            if (!parses.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new UnavailableException(item.name() + ": not parsed: every parser was still busy after "
                        + timeoutMs / 1000 + " s (earlier files that overran their time limit); it is tried again by "
                        + "the next ingest or sync");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InvalidInputException(item.name() + ": parsing was interrupted");
        }
        Future<?> run;
        try {
            run = workers.submit(() -> {
                try {
                    return parseWithTika(item, type, skipEmbedded, doc, layout, metadata, attachments);
                } finally {
                    // Held until the parse really ends: one that outlives its time limit still holds memory.
                    parses.release();
                }
            });
        } catch (RuntimeException e) {
            parses.release();
            throw e;
        }
        awaitParse(item, type, run);
        ParsedDocument mail = attachments == null ? null : attachments.appendTo(doc.build("", type), item,
                this::parse, maxChars, started + timeoutMs);
        if (doc.isEmpty() && (mail == null || mail.blocks().isEmpty())) {
            throw new InvalidInputException(item.name() + ": no text to index (" + type + (ocr
                    ? "; OCR found no text either)" : " with no text layer; a scanned document needs OCR: install "
                            + "Debian's tesseract-ocr package and restart)"));
        }
        String title = metadata.get(TikaCoreProperties.TITLE);
        if (title == null || title.isBlank()) {
            title = doc.firstHeading() != null && layout == TikaXhtmlHandler.Layout.FLOW ? null
                    : TextFormatsParser.stem(item.name());
        }
        return mail == null ? doc.build(title, type) : new ParsedDocument(title, mail.text(), mail.blocks(), type);
    }

    private static final String ODS = "application/vnd.oasis.opendocument.spreadsheet";

    /** Parses no embedded resource: attachments, OLE objects and pictures inside a document are skipped. */
    private static final EmbeddedDocumentExtractor NO_EMBEDDED =
            new EmbeddedDocumentExtractor() {
                @Override
                public boolean shouldParseEmbedded(Metadata metadata) {
                    return false;
                }

                @Override
                public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata,
                        boolean outputHtml) {
                    // never called: shouldParseEmbedded says no
                }
            };

    /** One Tika parse into {@code doc}, on a worker thread. */
    private Void parseWithTika(SourceItem item, String type, boolean skipEmbedded, DocumentBuilder doc,
            TikaXhtmlHandler.Layout layout, Metadata metadata, MailAttachments attachments) throws Exception {
        try (InputStream in = new ByteArrayInputStream(item.content())) {
            // No Parser in the context: embedded documents (attachments, OLE objects) are not parsed. Numbers and
            // dates are written the same way whatever the server's locale, so the index does not depend on it.
            ParseContext context = new ParseContext();
            context.set(Locale.class, Locale.ROOT);
            // Tika's AutoDetectParser parses a file's embedded resources itself unless told not to: a pptx's
            // or docx's pictures were OCR'd into a section named after the picture's file (image1.png), placed
            // at the end, which could become the document's title.
            context.set(EmbeddedDocumentExtractor.class, attachments != null ? attachments : skipEmbedded
                    ? NO_EMBEDDED : new PicturesOnly(context, tika.getDetector()));
            // A template's master and layout text ("ACME - internal use only") was written after every slide: one
            // line in each slide's chunk, sixty times for sixty slides.
            OfficeParserConfig office = new OfficeParserConfig();
            office.setIncludeSlideMasterContent(false);
            context.set(OfficeParserConfig.class, office);
            if (type.equals("message/rfc822")) {
                // An e-mail's text and HTML parts are read by the parser in the context (without one, only its
                // headers were, and it had "no text"); its attachments are kept aside, parsed after it (MailAttachments).
                OcrContext.ocrWith(context, tika); // the parser in the context, as for OCR
            }
            if (ocr) {
                // A scanned PDF page is rendered and OCR'd by the parser in the context (Tika puts itself there only
                // when it also parses embedded documents).
                OcrContext.ocrWith(context, tika);
                // Pages with (almost) no text layer are scanned: OCR them; pages with text are read as text.
                PDFParserConfig pdf = new PDFParserConfig();
                pdf.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.AUTO);
                context.set(PDFParserConfig.class, pdf);
                TesseractOCRConfig tesseract =
                        new TesseractOCRConfig();
                tesseract.setTimeoutSeconds((int) Math.max(1, timeoutMs / 1000));
                context.set(TesseractOCRConfig.class, tesseract);
            } else {
                PDFParserConfig pdf = new PDFParserConfig();
                pdf.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.NO_OCR);
                context.set(PDFParserConfig.class, pdf);
            }
            tika.parse(in, new TikaXhtmlHandler(doc, layout, maxChars, type.equals(ODS) ? OdsSheets.names(item, maxExpandedBytes)
                    : List.of()), metadata, context);
        }
        return null;
    }

    /** Waits for a parse within the time limit; a failure or an overrun becomes the file's reason. */
    private void awaitParse(SourceItem item, String type, Future<?> run) {
        try {
            run.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            throw new InvalidInputException(item.name() + ": parsing took longer than " + timeoutMs / 1000
                    + " s and was stopped (raise POLYRAG_INGEST_PARSE_TIMEOUT_SECONDS for very large files)");
        } catch (InterruptedException e) {
            run.cancel(true);
            Thread.currentThread().interrupt();
            throw new InvalidInputException(item.name() + ": parsing was interrupted");
        } catch (ExecutionException e) {
            throw ParseFailures.failure(item, type, e.getCause());
        }
    }

    private static TikaXhtmlHandler.Layout layout(String type) {
        if (type.startsWith("image/")) {
            return TikaXhtmlHandler.Layout.IMAGE;
        }
        if (type.equals("application/pdf")) {
            return TikaXhtmlHandler.Layout.PAGES;
        }
        if (type.contains("presentation") || type.contains("powerpoint")) {
            return TikaXhtmlHandler.Layout.SLIDES;
        }
        if (type.contains("spreadsheet") || type.contains("excel")) {
            return TikaXhtmlHandler.Layout.SHEETS;
        }
        return TikaXhtmlHandler.Layout.FLOW;
    }

    @Override
    public Set<String> mediaTypes() {
        Set<String> all = new TreeSet<>(text.mediaTypes());
        all.addAll(Set.of("application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                "application/msword", "application/vnd.openxmlformats-officedocument.presentationml.presentation",
                "application/vnd.ms-powerpoint", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "application/vnd.ms-excel", "application/vnd.oasis.opendocument.spreadsheet",
                "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.presentation",
                "application/rtf", "application/epub+zip", "text/csv", "text/tab-separated-values"));
        CODE.values().forEach(language -> all.add("text/x-" + language));
        if (ocr) {
            all.addAll(OCR_IMAGES);
        }
        return all;
    }

    /** Extensions accepted when walking a directory (images too, when OCR is available). */
    @Override
    public Set<String> extensions() {
        Set<String> all = new TreeSet<>(DOCUMENTS);
        all.addAll(CODE.keySet());
        all.addAll(List.of("txt", "text", "log", "rst", "adoc", "md", "markdown", "mdown", "mkd", "html",
                "htm", "xhtml"));
        if (ocr) {
            all.addAll(IMAGE_EXTENSIONS);
        }
        return all;
    }

    @Override
    public boolean acceptsName(String fileName) {
        String ext = TextFormatsParser.extension(fileName);
        return text.acceptsName(fileName) || DOCUMENTS.contains(ext) || CODE.containsKey(ext)
                || dockerfile(fileName) || ocr && IMAGE_EXTENSIONS.contains(ext);
    }
}
