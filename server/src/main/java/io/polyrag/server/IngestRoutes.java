package io.polyrag.server;

import io.polyrag.app.api.Limits;
import io.polyrag.app.api.TextIngest;
import io.polyrag.app.api.ReceivedFile;
import static io.polyrag.server.Http.flag;
import static io.polyrag.server.Http.jsonBody;
import static io.polyrag.server.Http.largeJsonBody;

import io.javalin.http.Context;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.InvalidInputException;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.Ids;
import java.util.TreeSet;

/** {@code /v1/ingest/*}: a text now, files as a job, upload staging, and staged files as a job. */
final class IngestRoutes {
    private final Polyrag polyrag;

    IngestRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    /** The facets acting for the tenant the request authenticated as. */
    private Polyrag.TenantFacets tenant(Context ctx) {
        return polyrag.as(Auth.tenant(ctx));
    }

    void register(Api api) {
        api.post("/v1/ingest/text", this::ingestText).summary("ingest", "Ingest one text now")
                .body(api.schemas(), Dtos.TextBody.class, "text")
                .response(200, "the report, with the text's document_id and version", IngestWire.Report.class);
        api.post("/v1/ingest/files", this::ingestFiles).summary("ingest", "Stage files and ingest them as a job")
                .multipart(FILES_FIELDS.toArray(String[]::new)).response(202, "the job, queued",
                        IngestWire.Accepted.class);
        api.post("/v1/ingest/upload", this::upload).summary("ingest",
                "Check and keep files without ingesting them; each refused file with its reason")
                .multipart(UPLOAD_FIELDS.toArray(String[]::new)).response(200, "accepted and skipped files",
                        IngestWire.Staged.class);
        api.post("/v1/ingest/staged", this::ingestStaged).summary("ingest", "Ingest staged files as a job")
                .body(api.schemas(), Dtos.StagedBody.class, "ids")
                .response(202, "the job, queued", IngestWire.Accepted.class);
        api.delete("/v1/ingest/staged/{id}", ctx -> {
            tenant(ctx).uploads().discardStaged(ctx.pathParam("id"));
            ctx.status(204);
        }).summary("ingest", "Delete a staged file no ingest took (it stops counting against stored_mb)")
                .path("id", "an id POST /v1/ingest/upload accepted").response(204, "deleted", null);
    }

    private void ingestText(Context ctx) {
        Dtos.TextBody b = largeJsonBody(ctx, Dtos.TextBody.class);
        // The one document's id and version at the top, so a client can fetch or delete it without a search.
        try (ClientProbe gone = ClientProbe.of(ctx)) {
            ctx.json(IngestWire.ofText(tenant(ctx).ingest().text(new TextIngest(b.text(), b.title(), b.uri(),
                    b.format(), KnowledgeBase.of(b.knowledgeBase()), Boolean.TRUE.equals(b.skipGraph())), gone)));
        }
    }

    /** The fields each multipart route takes: any other is refused, naming the ones it takes. */
    static final List<String> FILES_FIELDS = List.of("files", "kb", "skip_graph", "figures");
    static final List<String> UPLOAD_FIELDS = List.of("files", "kb");

    private void ingestFiles(Context ctx) {
        List<UploadedFile> files = uploadedFiles(ctx, "ingest", "files", FILES_FIELDS, "");
        KnowledgeBase kb = KnowledgeBase.of(ctx.formParam("kb"));
        Path staging = tenant(ctx).uploads().newStagingDir();
        String id;
        try {
            id = tenant(ctx).uploads().submit(kb, staging, stage(files, staging), flag(ctx.formParam("skip_graph"),
                    "skip_graph"), null, null, figures(ctx.formParam("figures"), "form field"));
        } catch (RuntimeException e) {
            tenant(ctx).uploads().discard(staging);
            throw e;
        }
        String location = "/v1/jobs/" + id;
        ctx.status(HttpStatus.ACCEPTED).header("Location", location)
                .json(new IngestWire.Accepted(id, "queued", files.size(), location));
    }

    /** Stages and checks files; ingests nothing. 200 with what was accepted and what was skipped, and why. */
    private void upload(Context ctx) {
        List<UploadedFile> files = uploadedFiles(ctx, "stage", "files", UPLOAD_FIELDS, " (skip_graph and figures "
                + "are chosen when the staged files are ingested: POST /v1/ingest/staged)");
        KnowledgeBase kb = KnowledgeBase.of(ctx.formParam("kb"));
        Path tmp = tenant(ctx).uploads().newStagingDir();
        try {
            ctx.json(IngestWire.of(tenant(ctx).uploads().stage(kb, stage(files, tmp))));
        } finally {
            tenant(ctx).uploads().discard(tmp);
        }
    }

    private void ingestStaged(Context ctx) {
        Dtos.StagedBody b = Json.read(jsonBody(ctx), Dtos.StagedBody.class);
        if (b.ids() == null || b.ids().isEmpty()) {
            throw new InvalidInputException("'ids' is required: the ids POST /v1/ingest/upload accepted");
        }
        String id = tenant(ctx).uploads().ingestStaged(b.ids(), b.knowledgeBase() == null || b.knowledgeBase().isBlank()
                ? null : KnowledgeBase.of(b.knowledgeBase()), Boolean.TRUE.equals(b.skipGraph()),
                figures(b.figures(), "field"));
        String location = "/v1/jobs/" + id;
        ctx.status(HttpStatus.ACCEPTED).header("Location", location)
                .json(new IngestWire.Accepted(id, "queued", b.ids().size(), location));
    }

    /** The {@code figures} choice of an ingest: null when not given (the server's default), else auto, force or skip. */
    static FigureMode figures(String value, String what) {
        if (value == null) {
            return null;
        }
        try {
            return FigureMode.parse(value);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(what + " 'figures' must be auto, force or skip, was '"
                    + Ids.abbreviate(value.strip(), 20) + "'");
        }
    }

    /**
     * The request's parts named {@code part}: 415 when it is not multipart; 400 when there are none, when it has a
     * field the route does not take ({@code fields}; {@code hint} says where it belongs), or more than
     * {@link Limits#MAX_FILES_PER_REQUEST} files.
     */
    static List<UploadedFile> uploadedFiles(Context ctx, String verb, String part, List<String> fields, String hint) {
        if (!ctx.isMultipartFormData()) {
            throw new HttpResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(),
                    "send the files as multipart/form-data, one part named '" + part + "' per file");
        }
        Http.checkFormFields(ctx, Set.of("categories"), Set.of());
        Set<String> given = new TreeSet<>(ctx.formParamMap().keySet());
        given.addAll(ctx.uploadedFileMap().keySet());
        // A field sent as a file part (requests' files={"kb": ...}) is not read as the field: the upload went to the
        // default knowledge base, untitled, with 202.
        for (String name : ctx.uploadedFileMap().keySet()) {
            if (!name.equals(part) && fields.contains(name)) {
                throw new InvalidInputException("form field '" + name + "' was sent as a file part: send it as a "
                        + "plain form field (only '" + part + "' parts are files)");
            }
        }
        for (String name : given) {
            if (!fields.contains(name)) {
                throw new InvalidInputException("form field '" + Ids.abbreviate(name, 40)
                        + "' is not one " + ctx.method() + " " + ctx.endpoints().lastHttpEndpoint().path
                        + " takes: it takes " + String.join(", ", fields) + hint);
            }
        }
        List<UploadedFile> files = ctx.uploadedFiles(part);
        if (files.isEmpty()) {
            throw new InvalidInputException("no files: add one part named '" + part + "' per file to " + verb);
        }
        if (files.size() > Limits.MAX_FILES_PER_REQUEST) {
            throw new InvalidInputException("at most " + Limits.MAX_FILES_PER_REQUEST + " files per request, got "
                    + files.size() + ": send them in several requests");
        }
        return files;
    }

    static List<ReceivedFile> stage(List<UploadedFile> files, Path staging) {
        List<ReceivedFile> staged = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < files.size(); i++) {
            UploadedFile f = files.get(i);
            Path target = staging.resolve(Integer.toString(i));
            try (InputStream in = f.content()) {
                Files.copy(in, target);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stage upload " + f.filename(), e);
            }
            staged.add(new ReceivedFile(unique(UploadNames.sanitise(f.filename()), names), target));
        }
        return staged;
    }

    static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int n = 2; !taken.add(candidate); n++) {
            // The file name's dot, not one in its folders' ("v1.2/LICENSE" is "v1.2/LICENSE (2)").
            int slash = name.lastIndexOf('/');
            int dot = name.lastIndexOf('.');
            candidate = dot > slash + 1 ? name.substring(0, dot) + " (" + n + ")" + name.substring(dot)
                    : name + " (" + n + ")";
        }
        return candidate;
    }
}
