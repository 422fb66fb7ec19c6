package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.ProgressListener;
import io.polyrag.testing.DocumentFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Figures through the facade: hostile images never fail a document, limits end in warnings, a new version replaces
 * its figures (the old images are deleted), and the catalog and stores stay consistent.
 */
class FigureIngestTest {
    @TempDir
    Path tmp;

    private static SourceItem item(String name, byte[] bytes) {
        return new SourceItem("file:///" + name, name, bytes, null);
    }

    private long figureBlobs() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(p -> p.getFileName().toString().startsWith("figure-")
                    && !p.getFileName().toString().endsWith("-0")).count();
        }
    }

    @Test
    void hostile_images_and_limits_are_warnings_never_a_failed_document() throws IOException {
        try (Polyrag polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("figures.file.max", "5",
                "figures.ingest.max", "6")))) {
            // The same bytes both times (PDFBox writes a new file id at each save).
            byte[] catalogue = DocumentFixtures.manyImagesPdf(300);
            byte[] report = DocumentFixtures.figuresPdf();
            IngestReport r = polyrag.ingest().items(List.of(item("photos.pdf", DocumentFixtures.hostileImagesPdf()),
                    item("catalogue.pdf", catalogue), item("report.pdf", report)), KnowledgeBase.DEFAULT,
                    ProgressListener.NONE);

            assertThat(r.failed()).isZero();
            assertThat(r.added()).isEqualTo(3);
            assertThat(r.warnings()).anyMatch(w -> w.startsWith("photos.pdf: figures:") && w.contains("megapixels"))
                    .anyMatch(w -> w.startsWith("catalogue.pdf: figures:") && w.contains("at most 5"))
                    .anyMatch(w -> w.startsWith("report.pdf: figures:") && w.contains("at most 1")
                            && w.contains("POLYRAG_FIGURES_INGEST_MAX"));
            // Five from the catalogue, then one of the report's two under the ingest's limit of six.
            assertThat(figureBlobs()).isEqualTo(6);
            assertThat(polyrag.admin().check(false).consistent()).isTrue();
            // Again: the catalogue met its per-file limit (it would again), the report this ingest's allowance, so
            // only the report is taken again.
            IngestReport again = polyrag.ingest().items(List.of(item("catalogue.pdf", catalogue), item("report.pdf",
                    report)), KnowledgeBase.DEFAULT, ProgressListener.NONE);
            assertThat(again.unchanged()).isEqualTo(1);
            assertThat(again.updated()).isEqualTo(1);
        }
    }

    @Test
    void a_new_version_replaces_its_figures_and_deletes_the_old_images() throws IOException {
        try (Polyrag polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of()))) {
            polyrag.ingest().items(List.of(item("report.pdf", DocumentFixtures.figuresPdf())), KnowledgeBase.DEFAULT,
                    ProgressListener.NONE);
            assertThat(figureBlobs()).isEqualTo(2);
            String id = polyrag.search().run(new SearchRequest("quarterly sales by region", 3, List.of(), java.util.Set
                    .of(), null)).hits().getFirst().documentId();
            // The same uri, now a PDF without figures: the old version's images go with it.
            IngestReport r = polyrag.ingest().items(List.of(item("report.pdf", DocumentFixtures.pdf(List.of(
                    "Sales by region are now reported in the appendix.")))), KnowledgeBase.DEFAULT,
                    ProgressListener.NONE);
            assertThat(r.updated()).isEqualTo(1);
            assertThat(figureBlobs()).isZero();
            assertThat(polyrag.search().run(new SearchRequest("sales by region appendix", 3, List.of(), java.util.Set
                    .of(), null)).hits()).allSatisfy(h -> assertThat(h.figures()).isEmpty());
            assertThat(polyrag.documents().get(id).visibleVersion()).isEqualTo(2);
        }
    }
}
