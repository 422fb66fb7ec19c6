package io.polyrag.ingest;

import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.ExtractedFigure;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The figures of an ingest: taken from each PDF and Office file within the file's and the ingest's allowances,
 * indexed as chunks of kind figure, their images kept in the blob store with their document version and deleted with
 * it.
 */
final class IngestFigures {
    private static final System.Logger LOG = System.getLogger(IngestFigures.class.getName());
    private static final WordTokenCounter TOKENS = new WordTokenCounter();
    private final IngestPipeline.FigureOptions options;
    private final Parser parser;

    IngestFigures(IngestPipeline.FigureOptions options, Parser parser) {
        this.options = options;
        this.parser = parser;
    }

    IngestPipeline.FigureOptions options() {
        return options;
    }

    /** A fresh allowance for one ingest. */
    Allowance allowance() {
        return new Allowance(options.perIngest(), options.perIngestBytes());
    }

    /** What is left of one ingest's figure allowance. */
    static final class Allowance {
        int count;
        long bytes;
        boolean warned;

        Allowance(int count, long bytes) {
            this.count = count;
            this.bytes = bytes;
        }
    }

    /**
     * Takes one file's figures within the file's and the ingest's allowances and appends their chunk drafts (kind
     * figure, text: the caption, then the text read from the image) after its text chunks. Never fails the file: what
     * cannot be taken is named in a warning.
     */
    List<PreparedFigure> take(SourceItem item, ParsedDocument parsed, List<ChunkDraft> drafts,
            FigureMode mode, Allowance budget, Tally tally, boolean[] partial) {
        IngestPipeline.FigureOptions f = options;
        if (!parser.hasFigures(parsed.mediaType())) {
            return List.of();
        }
        if (budget.count <= 0 || budget.bytes <= 0) {
            partial[0] = f.perIngest() > 0;
            if (!budget.warned && f.perIngest() > 0) {
                budget.warned = true;
                tally.warn("figures: this ingest reached its limit (POLYRAG_FIGURES_INGEST_MAX, "
                        + "POLYRAG_FIGURES_INGEST_MAX_MB); later PDF and Office files were indexed without figures");
            }
            return List.of();
        }
        Parser.Figures found;
        boolean ingestBound = budget.count < f.perFile() || budget.bytes < f.perFileBytes();
        try {
            found = parser.figures(item, parsed.mediaType(), new Parser.FigureLimits(mode, Math.min(f.perFile(),
                    budget.count), Math.min(f.perFileBytes(), budget.bytes), f.timeoutMs()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "figure extraction failed for " + item.name(), e);
            tally.warn(item.name() + ": figures could not be extracted; its text was indexed without them");
            partial[0] = true;
            return List.of();
        }
        found.warnings().forEach(w -> tally.warn(item.name() + ": " + w));
        // Cut short by time or a failure, or by what was left of this ingest's allowance (not by the per-file
        // limits, which the next ingest would meet again).
        partial[0] = found.cutShort() || ingestBound && !found.warnings().isEmpty();
        int textChunks = drafts.size();
        List<PreparedFigure> out = new ArrayList<>();
        for (ExtractedFigure x : found.figures()) {
            budget.count--;
            budget.bytes -= x.bytes().length;
            List<Integer> anchors = FigureAnchors.anchors(x, drafts.subList(0, textChunks));
            ChunkDraft anchor = drafts.get(anchors.getFirst());
            String text = FigureAnchors.text(x);
            drafts.add(new ChunkDraft(ChunkKind.FIGURE, text, anchor.headingPath(),
                    anchor.endOffset(), anchor.endOffset(), TOKENS.count(text), x.location()));
            out.add(new PreparedFigure(drafts.size() - 1, new Figure(out.size() + 1,
                    x.caption(), x.mediaType(), x.width(), x.height(), anchors, x.box()), x.bytes()));
        }
        return out;
    }

    /**
     * Keeps a version's figure images in the blob store: first a marker holding their count (so a purge interrupted
     * half-way still finds the rest), then each image.
     */
    void put(Prepared p, long version) {
        if (p.figures().isEmpty()) {
            return;
        }
        var blobs = options.blobs();
        blobs.put(Figure.blobKey(p.documentId(), version, 0), String.valueOf(p.figures().size())
                .getBytes(StandardCharsets.US_ASCII), "text/plain", "figures");
        for (PreparedFigure f : p.figures()) {
            blobs.put(Figure.blobKey(p.documentId(), version, f.figure().number()), f.bytes(),
                    f.figure().mediaType(), "figure-" + f.figure().number() + extension(f.figure().mediaType()));
        }
    }

    private static String extension(String mediaType) {
        return switch (mediaType) {
            case "image/jpeg" -> ".jpg";
            case "image/gif" -> ".gif";
            default -> ".png";
        };
    }

    /** Deletes the figure images of versions that are gone, last of all their count marker. */
    void delete(Collection<DocumentVersion> versions) {
        IngestPipeline.FigureOptions f = options;
        for (DocumentVersion v : versions) {
            String marker = Figure.blobKey(v.documentId(), v.version(), 0);
            var count = f.blobs().get(marker);
            if (count.isEmpty()) {
                continue;
            }
            int n;
            try (var in = count.get().content()) {
                n = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip());
            } catch (IOException | NumberFormatException e) {
                n = 1000;
            }
            for (int i = n; i >= 1; i--) {
                f.blobs().delete(Figure.blobKey(v.documentId(), v.version(), i));
            }
            f.blobs().delete(marker);
        }
    }
}
