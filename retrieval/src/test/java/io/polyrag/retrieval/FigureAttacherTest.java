package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.FigureRef;
import io.polyrag.core.model.SearchHit;
import io.polyrag.store.catalog.H2CatalogProvider;
import io.polyrag.store.catalog.JdbcCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Figure hits fold into the text they belong with; anchored figures come first; the response's cap holds. */
class FigureAttacherTest {
    @TempDir
    Path dir;

    private JdbcCatalog catalog;
    private FigureAttacher attacher;

    @BeforeEach
    void open() {
        catalog = H2CatalogProvider.open(dir);
        attacher = new FigureAttacher(catalog);
        // d1: three prose chunks; figure 1 anchored to chunk 0, figure 2 to chunk 2.
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            chunks.add(Chunk.builder("d1", 1, i).text("prose " + i).offsets(i, i + 1).tokenCount(2)
                    .location("page " + (i + 1)).build());
        }
        chunks.add(figure("d1", 3, new Figure(1, "Figure 1: Sales", "image/png", 10, 10, List.of(0)), "page 1"));
        chunks.add(figure("d1", 4, new Figure(2, "Figure 2: Staff", "image/png", 10, 10, List.of(2)), "page 3"));
        catalog.stage(new DocumentDraft("d1", "kb", "file:///d1", "D1", "application/pdf", "h", 1, chunks), 1);
        catalog.publish(new DocumentVersion("d1", 1));
    }

    @AfterEach
    void close() {
        catalog.close();
    }

    private static Chunk figure(String doc, int ordinal, Figure f, String location) {
        return Chunk.builder(doc, 1, ordinal).text(f.caption()).offsets(3, 3).tokenCount(3).location(location)
                .figure(f).build();
    }

    private static SearchHit hit(int rank, int ordinal, ChunkKind kind) {
        return SearchHit.builder().rank(rank).score(1.0 / rank).documentId("d1").chunkId(Chunk.idOf("d1", 1, ordinal))
                .uri("file:///d1").title("D1").text("t").kind(kind).knowledgeBase("kb").version(1)
                .ordinal(ordinal).location("").build();
    }

    @Test
    void aTextHitBringsTheFiguresAnchoredToIt() {
        List<SearchHit> out = attacher.attach(List.of(hit(1, 0, ChunkKind.PROSE), hit(2, 1, ChunkKind.PROSE)), 10, 3);
        assertThat(out.get(0).figures()).extracting(FigureRef::number).containsExactly(1);
        assertThat(out.get(0).figures().getFirst().anchored()).isTrue();
        assertThat(out.get(1).figures()).isEmpty();
    }

    @Test
    void aFigureHitTakesTheRankOfTheChunkItBelongsWithAndIsNeverAHitOfItsOwn() {
        // The caption of figure 2 matched first; its anchor (chunk 2) was not retrieved.
        List<SearchHit> out = attacher.attach(List.of(hit(1, 4, ChunkKind.FIGURE), hit(2, 1, ChunkKind.PROSE)), 10, 3);
        assertThat(out).extracting(SearchHit::ordinal).containsExactly(2, 1);
        assertThat(out).extracting(SearchHit::rank).containsExactly(1, 2);
        assertThat(out.get(0).kind()).isEqualTo(ChunkKind.PROSE);
        assertThat(out.get(0).text()).isEqualTo("prose 2");
        assertThat(out.get(0).figures()).extracting(FigureRef::number).containsExactly(2);
        assertThat(out.get(0).figures().getFirst().anchored()).as("its caption matched").isFalse();
    }

    @Test
    void aFigureHitWhoseAnchorIsListedJoinsItAndLeavesItsPlaceToTheNextHit() {
        List<SearchHit> out = attacher.attach(List.of(hit(1, 1, ChunkKind.PROSE), hit(2, 3, ChunkKind.FIGURE),
                hit(3, 0, ChunkKind.PROSE), hit(4, 2, ChunkKind.PROSE)), 3, 3);
        assertThat(out).extracting(SearchHit::ordinal).containsExactly(1, 0, 2);
        assertThat(out.get(1).figures()).extracting(FigureRef::number).containsExactly(1);
        assertThat(out.get(2).figures()).extracting(FigureRef::number).containsExactly(2);
    }

    @Test
    void aFigureHitWhoseAnchorRanksBelowTheCutBringsItUpToItsPlace() {
        // top 2: the figure of chunk 2 ranked first, chunk 2 itself third: chunk 2 takes the figure's place.
        SearchHit figure = hit(1, 4, ChunkKind.FIGURE).toBuilder().contributions(java.util.Map.of("vector", 1.0))
                .build();
        SearchHit anchor = hit(3, 2, ChunkKind.PROSE).toBuilder().contributions(java.util.Map.of("fulltext", 1.0 / 3))
                .build();
        List<SearchHit> out = attacher.attach(List.of(figure, hit(2, 1, ChunkKind.PROSE), anchor), 2, 3);
        assertThat(out).extracting(SearchHit::ordinal).containsExactly(2, 1);
        assertThat(out.get(0).contributions().values().stream().mapToDouble(Double::doubleValue).sum())
                .as("explain's shares sum to the score").isEqualTo(out.get(0).score());
        assertThat(out.get(0).figures()).extracting(FigureRef::number).containsExactly(2);
        assertThat(out.get(0).score()).as("the figure's standing, not its own lower score").isEqualTo(1.0);
        assertThat(out).extracting(SearchHit::score).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    @Test
    void theCapCountsOverTheWholeResponseInRankOrder() {
        List<SearchHit> out = attacher.attach(List.of(hit(1, 4, ChunkKind.FIGURE), hit(2, 0, ChunkKind.PROSE)), 10, 1);
        // Figure 2 brought the first hit (its caption matched): it stays with it; figure 1 is over the cap.
        assertThat(out.stream().mapToInt(h -> h.figures().size()).sum()).isEqualTo(1);
        assertThat(out.get(0).figures()).extracting(FigureRef::number).containsExactly(2);
        List<SearchHit> two = attacher.attach(List.of(hit(1, 1, ChunkKind.PROSE), hit(2, 2, ChunkKind.PROSE),
                hit(3, 0, ChunkKind.PROSE)), 10, 1);
        assertThat(two.get(1).figures()).extracting(FigureRef::number).containsExactly(2);
        assertThat(two.get(2).figures()).isEmpty();
        assertThat(attacher.attach(List.of(hit(1, 0, ChunkKind.PROSE)), 10, 0).getFirst().figures()).isEmpty();
    }
}
