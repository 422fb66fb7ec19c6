package io.polyrag.app;

import io.polyrag.app.api.Formats;
import io.polyrag.app.api.Limits;
import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.PathIngestReport;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.Parser;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.ingest.FileSources;
import io.polyrag.ingest.IngestInput;
import io.polyrag.ingest.IngestPipeline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * Ingest now, on the calling thread: local paths, in-memory items, one inline text; what an ingest would cost; and
 * which formats are accepted. (Uploads, which become jobs, are {@link Uploads}.)
 */
public final class Ingest {
    private final MeteredIngest ingest;
    private final Parser parser;
    private final Config config;
    private final Tenant tenant;

    Ingest(MeteredIngest ingest, Parser parser, Config config, Tenant tenant) {
        this.ingest = ingest;
        this.parser = parser;
        this.config = config;
        this.tenant = tenant;
    }

    /** Ingests files and directories. */
    public PathIngestReport paths(PathIngest request, ProgressListener listener) {
        return paths(request, listener, Confinement.NONE, () -> false);
    }

    /** The folders a walk of the user's own folders never enters: polyrag's data and blob directories. */
    private List<Path> ownFolders() {
        List<Path> own = new ArrayList<>(List.of(config.get(Settings.DATA_DIR)));
        String blobs = config.get(Settings.BLOB_DIR);
        if (!blobs.isBlank()) {
            own.add(Path.of(blobs.strip()));
        }
        return own;
    }

    /**
     * Ingests files read only as {@code confinement} allows (a sync source's folders), stopping before the next file
     * once {@code canceled} says so.
     */
    PathIngestReport paths(PathIngest request, ProgressListener listener, Confinement confinement,
            BooleanSupplier canceled) {
        FileSources.Listing listing = FileSources.list(request.paths(), request.includes(), request.excludes(),
                parser::acceptsName, confinement, ownFolders());
        ingest.mayIngest(tenant.id());
        IngestReport r = ingest.ingest(tenant.id(), listing.inputs(), Scope.bind(tenant, request.knowledgeBase())
                .storageName(), new IngestPipeline.Run(request.skipGraph(), 0, canceled), listener);
        if (listing.errors().isEmpty()) {
            return new PathIngestReport(r, listing.skipped());
        }
        List<ItemError> errors = new ArrayList<>(listing.errors());
        errors.addAll(r.errors());
        return new PathIngestReport(r.toBuilder().counts(r.documents() + listing.errors().size(), r.added(),
                r.updated(), r.unchanged(), r.failed() + listing.errors().size()).errors(errors).build(),
                listing.skipped());
    }

    /**
     * What ingesting these paths would cost, without writing anything or calling a model: documents, chunks, and
     * the language-model calls and tokens entity extraction would spend.
     */
    public IngestEstimate estimate(PathIngest request) {
        FileSources.Listing listing = list(request);
        IngestEstimate e = ingest.pipeline().estimate(listing.inputs(), Scope.bind(tenant, request.knowledgeBase())
                .storageName(), () -> false);
        if (request.skipGraph()) {
            e = new IngestEstimate(e.documents(), e.chunks(), e.chunkTokens(), "none", 0, 0, 0, e.errors(),
                    e.contextCalls(), e.contextInputTokens(), e.contextOutputTokens());
        }
        List<ItemError> errors = new ArrayList<>(listing.errors());
        errors.addAll(e.errors());
        return e.withErrors(errors);
    }

    private FileSources.Listing list(PathIngest request) {
        return FileSources.list(request.paths(), request.includes(), request.excludes(),
                parser::acceptsName, Confinement.NONE, ownFolders());
    }

    /**
     * What items ingested now are indexed with besides their bytes (a fingerprint of the model, chunking, parser and
     * legs): a sync under other settings reads its items again rather than trusting their recorded state.
     */
    public String settingsSignature(boolean skipGraph) {
        return ingest.pipeline().fingerprint(new byte[0], !skipGraph);
    }

    /** Ingests in-memory items (for programs that make their own documents). */
    public IngestReport items(List<SourceItem> items, KnowledgeBase knowledgeBase, ProgressListener listener) {
        return items(items, knowledgeBase, false, listener);
    }

    /** Ingests in-memory items; {@code skipGraph} indexes them without extracting entities and relations. */
    public IngestReport items(List<SourceItem> items, KnowledgeBase knowledgeBase, boolean skipGraph,
            ProgressListener listener) {
        return items(items, knowledgeBase, skipGraph, listener, () -> false);
    }

    /**
     * Like {@link #items(List, KnowledgeBase, boolean, ProgressListener)}, stopping between inputs once
     * {@code stop} says so (a sync canceled or yielding): what was written before stays indexed.
     */
    public IngestReport items(List<SourceItem> items, KnowledgeBase knowledgeBase, boolean skipGraph,
            ProgressListener listener, BooleanSupplier stop) {
        List<IngestInput> inputs = items.stream().map(i -> new IngestInput(i.uri(), i.name(), i.content().length,
                i.mediaType(), i::content, i.title() == null ? null : i.name() + "\n" + i.title(), i.title()))
                .toList();
        ingest.mayIngest(tenant.id());
        return ingest.ingest(tenant.id(), inputs, Scope.bind(tenant, knowledgeBase).storageName(),
                new IngestPipeline.Run(skipGraph, 0, stop), listener);
    }

    /** Ingests one inline text. The same text (or the same uri) is the same document. */
    public IngestReport text(TextIngest request) {
        return text(request, () -> false);
    }

    /**
     * Like {@link #text(TextIngest)}, stopping without writing anything once {@code canceled} says so (the client
     * that asked has gone): checked while the text is embedded and before it is written.
     */
    public IngestReport text(TextIngest request, BooleanSupplier canceled) {
        if (request.text() == null || request.text().isBlank()) {
            throw new InvalidInputException("text is empty: give the content to ingest");
        }
        String ext = switch (request.format() == null ? "text" : request.format().toLowerCase(Locale.ROOT)) {
            case "text", "txt", "plain" -> ".txt";
            case "markdown", "md" -> ".md";
            case "html" -> ".html";
            default -> throw new InvalidInputException("format '" + request.format()
                    + "' is not supported: use text, markdown or html");
        };
        String uri = request.uri() == null || request.uri().isBlank()
                ? "text:" + Ids.sha256Hex(request.text().getBytes(StandardCharsets.UTF_8)).substring(0, 24)
                : checkUri(request.uri());
        int nul = request.text().indexOf('\0');
        if (nul >= 0) {
            throw new InvalidInputException("text contains a NUL character at offset " + nul + ": send text only "
                    + "(a binary file goes to POST /v1/ingest/files)");
        }
        if (request.title() != null && (request.title().length() > Limits.MAX_TITLE
                || request.title().chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInputException("title must be at most " + Limits.MAX_TITLE + " characters with no control "
                    + "characters");
        }
        // A title given wins. Untitled, an HTML page is named by its <title>, Markdown by its own (front matter, a
        // first heading) or else its first line, plain text by its first line.
        String given = request.title() != null && !request.title().isBlank() ? request.title().strip() : null;
        String title = given != null ? given : ext.equals(".txt") ? titleOf(request.text()) : null;
        String name = (ext.equals(".md") ? titleOf(request.text()).replace('/', ' ').replace('\\', ' ') : "text")
                + ext;
        ingest.mayIngest(tenant.id());
        return refusedAlone(ingest.ingest(tenant.id(), List.of(IngestInput.ofText(uri, name, request.text(), title)),
                Scope.bind(tenant, request.knowledgeBase()).storageName(), new IngestPipeline.Run(request.skipGraph(),
                        0, canceled), ProgressListener.NONE));
    }

    /**
     * The report of an ingest of one text, or its failure as an error: a text that was not indexed is not a success
     * with {@code failed: 1} in it (a client checking the status took it for written). Refused for what it is (no
     * text to index once parsed) it is the caller's to fix; anything else (the model, a store, a cancel) may succeed
     * when tried again.
     */
    static IngestReport refusedAlone(IngestReport report) {
        if (report.failed() == 0 || report.added() + report.updated() + report.unchanged() > 0) {
            return report;
        }
        ItemError e = report.errors().isEmpty() ? new ItemError("text", "it failed", true)
                : report.errors().getFirst();
        if (!e.retry()) {
            throw new InvalidInputException("'text' was not indexed: " + e.reason());
        }
        throw new UnavailableException("'text' was not indexed: " + e.reason() + "; send it again");
    }

    /** What this server accepts: media types, file extensions, the size limit, and whether OCR is available. */
    public Formats formats() {
        return new Formats(new TreeSet<>(parser.mediaTypes()), new TreeSet<>(parser.extensions()),
                config.get(Settings.INGEST_MAX_FILE_MB), parser.ocr());
    }

    /** A title for an untitled text: its first line with words, without Markdown heading marks, at most 80 chars. */
    static String titleOf(String text) {
        String line = text.lines().map(l -> l.strip().replaceFirst("^#+\\s*", "").strip())
                .filter(l -> l.chars().anyMatch(Character::isLetterOrDigit)).findFirst().orElse("text");
        return line.length() <= 80 ? line : line.substring(0, 80).strip() + "…";
    }

    private static String checkUri(String uri) {
        if (uri.length() > Limits.MAX_URI || uri.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidInputException("uri must be at most " + Limits.MAX_URI + " characters with no control "
                    + "characters");
        }
        return uri;
    }

}
