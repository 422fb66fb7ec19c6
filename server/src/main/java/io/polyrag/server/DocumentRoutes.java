package io.polyrag.server;

import static io.polyrag.server.Http.flag;
import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.javalin.http.UploadedFile;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code /v1/documents}: upload one document with its description (as a job), list with filters and a total, read
 * one, fetch its original, delete it everywhere; and {@code /v1/formats}.
 */
final class DocumentRoutes {
    /** The fields POST /v1/documents takes. */
    static final List<String> FIELDS = List.of("file", "title", "categories", "subcategory", "kb", "external_ref",
            "figures", "skip_graph");
    private final Polyrag polyrag;

    DocumentRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        api.post("/v1/documents", this::upload).summary("documents", "Upload one document with its title, "
                + "categories, subcategory, knowledge base and external reference; it is indexed as a job")
                .multipart(FIELDS.toArray(String[]::new))
                .response(202, "the job, queued, and the document's id", IngestWire.DocumentAccepted.class);
        api.get("/v1/documents", this::documents).summary("documents", "List visible documents, by uri, with the "
                + "total").query("kb", "string", "one knowledge base; default: all of yours")
                .query("category", "string", "only documents with this category")
                .query("status", "string", "indexing, indexed or updating; several comma-separated; default: "
                        + "indexed,updating (what search sees)")
                .query("offset", "integer", "documents to skip").query("limit", "integer", "page size, 1-1000")
                .response(200, "a page of documents", IngestWire.DocumentPage.class);
        api.get("/v1/documents/{id}", ctx -> {
            var documents = tenant(ctx).documents();
            String id = ctx.pathParam("id");
            ctx.json(IngestWire.detail(documents.get(id), documents.stores(id)));
        }).summary("documents", "A document: status, version, chunks, size, description, and what each store "
                + "holds of it, read live").path("id", "the document id")
                .response(200, "the document", IngestWire.DocumentDetail.class);
        api.get("/v1/documents/{id}/content", this::content).summary("documents", "The original the document was "
                + "uploaded as").path("id", "the document id").header("Range", "one byte range: bytes=a-b, a- or -n")
                .binary(200, "its bytes, with its media type").binary(206, "the bytes of the range asked for")
                .problem(416, "the range lies beyond the content (Content-Range: bytes */size)", Problem.class);
        api.get("/v1/documents/{id}/figures/{figure}", this::figure).summary("documents", "A figure's image, as "
                + "search hits and answer sources list it (figures[].url)").path("id", "the document id")
                .path("figure", "the figure's number in the document, from 1")
                .binary(200, "the image, with its media type (image/png, image/jpeg)");
        api.delete("/v1/documents/{id}", this::deleteDocument).summary("documents",
                "Delete a document from the catalog, every store and the stored original").path("id", "the document id")
                .response(204, "deleted", null);
        api.get("/v1/formats", ctx -> ctx.json(AdminWire.of(polyrag.ingest().formats()))).summary("documents",
                "What this server accepts: media types, extensions, the size limit, OCR")
                .response(200, "the accepted formats", AdminWire.FormatList.class);
    }

    private void upload(Context ctx) {
        List<UploadedFile> parts = IngestRoutes.uploadedFiles(ctx, "upload", "file", FIELDS, "");
        if (parts.size() != 1) {
            throw new InvalidInputException("send exactly one part named 'file' (got " + parts.size() + "); several "
                    + "files at once go to POST /v1/ingest/files");
        }
        FigureMode figures = IngestRoutes.figures(ctx.formParam("figures"), "form field");
        String title = ctx.formParam("title");
        if (title != null && (title.isBlank() || title.length() > Limits.MAX_TITLE
                || title.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInputException("form field 'title' must be 1-" + Limits.MAX_TITLE + " characters with "
                    + "no control characters");
        }
        DocumentMeta meta = DocumentMeta.of(ctx.formParams("categories"), ctx.formParam("subcategory"),
                ctx.formParam("external_ref"));
        KnowledgeBase kb = KnowledgeBase.of(ctx.formParam("kb"));
        var facets = tenant(ctx);
        Path staging = facets.uploads().newStagingDir();
        String job;
        List<ReceivedFile> staged;
        try {
            staged = IngestRoutes.stage(parts, staging);
            job = facets.uploads().submit(kb, staging, staged, flag(ctx.formParam("skip_graph"), "skip_graph"),
                    title == null ? null : title.strip(), meta, figures);
        } catch (RuntimeException e) {
            facets.uploads().discard(staging);
            throw e;
        }
        String documentId = Ids.documentId(KnowledgeBase.of(facets.tenant(), kb.name()).storageName(),
                "upload:" + staged.getFirst().name());
        String location = "/v1/jobs/" + job;
        ctx.status(HttpStatus.ACCEPTED).header("Location", location)
                .json(new IngestWire.DocumentAccepted(job, documentId, "queued", location));
    }

    private void documents(Context ctx) {
        Integer offset = intParam(ctx, "offset");
        Integer limit = intParam(ctx, "limit");
        int o = offset == null ? 0 : offset;
        int l = limit == null ? Limits.DEFAULT_DOCUMENTS_PAGE : limit;
        String kb = Http.query(ctx, "kb");
        var page = tenant(ctx).documents().list(kb == null || kb.isBlank() ? null : KnowledgeBase.of(kb),
                Http.query(ctx, "category"), statuses(Http.query(ctx, "status")), o, l);
        ctx.json(IngestWire.page(page.documents(), o, l, page.total()));
    }

    /** The {@code status} filter: one or several comma-separated statuses, or {@code all}; default: visible. */
    static Set<DocumentStatus> statuses(String param) {
        if (param == null || param.isBlank()) {
            return DocumentStatus.VISIBLE;
        }
        if (param.strip().equalsIgnoreCase("all")) {
            return EnumSet.allOf(DocumentStatus.class);
        }
        Set<DocumentStatus> out = EnumSet.noneOf(DocumentStatus.class);
        String[] parts = param.split(",", 4);
        if (parts.length > 3) {
            throw new InvalidInputException("query parameter 'status' names at most three statuses");
        }
        for (String s : parts) {
            out.add(DocumentStatus.parse(s));
        }
        return out;
    }

    private void content(Context ctx) throws IOException {
        // Opened at the range's first byte where the header names it (bytes=a- or a-b): an object store then sends
        // that range alone, in one request (opened whole and read past, a viewer's reads near the end of a large PDF
        // pulled the file before them each time).
        long start = ctx.header("If-Range") == null ? explicitStart(ctx.header("Range")) : 0;
        var blob = tenant(ctx).documents().content(ctx.pathParam("id"), start);
        long size = blob.size();
        // One byte range, as a download resumes and a PDF viewer reads pages: bytes=a-b, a- or -n. Several ranges,
        // or a conditional range (If-Range, which has no validator to match here), get the whole.
        long[] range = ctx.header("If-Range") == null ? range(ctx.header("Range"), size) : null;
        if (range != null && range.length == 0) {
            blob.content().close();
            ctx.header("Content-Range", "bytes */" + size);
            throw new Http.RangeNotSatisfiable("Range '" + Ids.abbreviate(ctx.header("Range"), 60) + "' lies beyond "
                    + "the " + size + " bytes of this original");
        }
        long from = range == null ? 0 : range[0];
        long length = range == null ? size : range[1] - range[0] + 1;
        // Opened and moved to the range's start before any header is set: a stream failing there (an object store's
        // reset) is an ordinary problem response, not a body under another length and a download name.
        // The blob's stream is open already: closed at once for HEAD (left to the collector, each HEAD held a file
        // descriptor or an object store's connection).
        InputStream in = blob.content();
        boolean head = ctx.method() == HandlerType.HEAD;
        if (head) {
            in.close();
        } else if (from != start) {
            in.close(); // a suffix range (bytes=-n), known once the size is
            in = tenant(ctx).documents().content(ctx.pathParam("id"), from).content();
        }
        ctx.status(range == null ? 200 : 206).contentType(blob.mediaType())
                .header("Content-Length", Long.toString(length)).header("Accept-Ranges", "bytes")
                .header("Content-Disposition", disposition("attachment", fileName(blob.name())))
                .header("X-Content-Type-Options", "nosniff");
        if (range != null) {
            ctx.header("Content-Range", "bytes " + range[0] + "-" + range[1] + "/" + size);
        }
        if (head) {
            return;
        }
        try (InputStream body = in) {
            OutputStream out = ctx.res().getOutputStream();
            byte[] buffer = new byte[64 * 1024];
            for (long left = length; left > 0; ) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
                left -= n;
            }
        }
    }

    /**
     * The single byte range a Range header asks for, clipped to the content: {@code [first, last]}; an empty array
     * when it is unsatisfiable (416); null when there is none to honour (absent, several, or not bytes).
     */
    /** The first byte a single range names outright (bytes=a- or bytes=a-b), or 0. */
    static long explicitStart(String header) {
        if (header == null || !header.startsWith("bytes=") || header.indexOf(',') >= 0) {
            return 0;
        }
        String spec = header.substring(6).strip();
        int dash = spec.indexOf('-');
        try {
            return dash > 0 ? Math.max(0, Long.parseLong(spec.substring(0, dash).strip())) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static long[] range(String header, long size) {
        if (header == null || !header.startsWith("bytes=") || header.indexOf(',') >= 0) {
            return null;
        }
        String spec = header.substring(6).strip();
        int dash = spec.indexOf('-');
        try {
            if (dash < 0) {
                return null;
            }
            String a = spec.substring(0, dash).strip();
            String b = spec.substring(dash + 1).strip();
            if (a.isEmpty()) {
                long suffix = Long.parseLong(b);
                return suffix <= 0 ? new long[0] : size == 0 ? new long[0]
                        : new long[] {Math.max(0, size - suffix), size - 1};
            }
            long first = Long.parseLong(a);
            long last = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
            if (first < 0 || !b.isEmpty() && Long.parseLong(b) < first) {
                return null;
            }
            return first >= size ? new long[0] : new long[] {first, last};
        } catch (NumberFormatException e) {
            return null;
        }
    }


    private void figure(Context ctx) throws IOException {
        String raw = ctx.pathParam("figure");
        int number;
        try {
            number = raw.length() > 6 ? -1 : Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 1) {
            throw new InvalidInputException("path parameter 'figure' must be a figure number from 1, was '"
                    + Ids.abbreviate(raw, 20) + "'");
        }
        var blob = tenant(ctx).documents().figure(ctx.pathParam("id"), number);
        // The number names a figure of the visible version: a new version may put another image under the same URL,
        // so it is not kept fresh for minutes (a hit showed the new caption over the old chart).
        ctx.status(200).contentType(blob.mediaType()).header("Content-Length", Long.toString(blob.size()))
                .header("Cache-Control", "private, no-cache").header("X-Content-Type-Options", "nosniff")
                .header("Content-Disposition", disposition("inline", fileName(blob.name())));
        if (ctx.method() == HandlerType.HEAD) {
            blob.content().close();
            return;
        }
        try (InputStream in = blob.content()) {
            in.transferTo(ctx.res().getOutputStream());
        }
    }

    /** An upload's name without the folders it was sent with ("2023/summary.md" is saved as "summary.md"). */
    static String fileName(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /**
     * A Content-Disposition with the name as ASCII ({@code filename}, for old clients: anything else, quotes and
     * backslashes as {@code _}) and as UTF-8 ({@code filename*}, RFC 6266 and 5987). Sent as raw bytes, a name like
     * "naïve 日本.txt" came out garbled, and a control character made Java's client refuse the whole response.
     */
    static String disposition(String kind, String name) {
        StringBuilder ascii = new StringBuilder();
        StringBuilder encoded = new StringBuilder();
        name.codePoints().forEach(c -> ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char) c : '_'));
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "!#$&-.^_`|~".indexOf(c) >= 0)) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(String.format("%02X", c));
            }
        }
        return kind + "; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
    }

    private void deleteDocument(Context ctx) {
        if (tenant(ctx).documents().delete(List.of(ctx.pathParam("id"))) == 0) {
            throw new NotFoundException("no document with id '" + Ids.abbreviate(ctx.pathParam("id"), 64) + "'");
        }
        ctx.status(HttpStatus.NO_CONTENT);
    }
}
