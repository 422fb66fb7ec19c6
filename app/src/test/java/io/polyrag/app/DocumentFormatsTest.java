package io.polyrag.app;

import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.PathIngestReport;
import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.testing.DocumentFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A folder of every common type, made by the test, ingested through the default stack: each phrase is found in the
 * right chunk, with its page, sheet or slide in the hit; broken and hostile files are skipped with their reasons
 * while the rest of the folder goes in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentFormatsTest {
    @TempDir
    static Path tmp;

    private Polyrag polyrag;
    private PathIngestReport report;

    @BeforeAll
    void ingest() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("docs"));
        Files.write(dir.resolve("tides.pdf"), DocumentFixtures.pdf(List.of("Introduction to tidal power.",
                "Turbines are anchored to the seabed.", "The Swansea lagoon would yield 320 megawatts at spring tide.")));
        Files.write(dir.resolve("vineyard.docx"), DocumentFixtures.docx("Harvest plan", "We pick in September.",
                List.of(List.of("Variety", "Rows"), List.of("Riesling", "14"), List.of("Xinomavro", "9"))));
        Files.write(dir.resolve("review.pptx"), DocumentFixtures.pptx(List.of("Quarterly review",
                "Churn fell to four percent across the fjord region")));
        Files.write(dir.resolve("pantry.xlsx"), DocumentFixtures.xlsx("Pantry", List.of("Item", "Qty", "Price",
                "Total"), List.of(List.of("Quince paste", 3, 4.5), List.of("Saffron threads", 2, 11))));
        Files.writeString(dir.resolve("harbour.py"), "import math\n\n\ndef mooring_tension(load, angle):\n"
                + "    \"\"\"Tension in a mooring line for a given load.\"\"\"\n"
                + "    return load / math.cos(angle)\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("ports.csv"), "port,depth\nValletta,12\nMarsaxlokk,18\n");
        Files.write(dir.resolve("logbook.png"), DocumentFixtures.textImage("Lighthouse keeper logbook"));
        Files.write(dir.resolve("broken.pdf"), java.util.Arrays.copyOf(DocumentFixtures.pdf(List.of("a", "b")), 300));
        Files.write(dir.resolve("secret.docx"), DocumentFixtures.encryptedDocx("hunter2"));
        Files.write(dir.resolve("invoice.pdf"), DocumentFixtures.elf());
        Files.write(dir.resolve("bomb.docx"), DocumentFixtures.expandingDocx(40));
        Files.write(dir.resolve("empty.md"), new byte[0]);
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of()));
        report = polyrag.ingest().paths(new PathIngest(List.of(dir), null, List.of("*.*"), List.of()),
                io.polyrag.core.port.ProgressListener.NONE);
    }

    @AfterAll
    void close() {
        polyrag.close();
    }

    private boolean ocr() {
        return polyrag.ingest().formats().ocr();
    }

    @Test
    void good_files_go_in_and_bad_ones_are_skipped_with_their_reasons() {
        int images = ocr() ? 1 : 0;
        assertThat(report.report().added()).isEqualTo(6 + images);
        assertThat(report.report().errors()).extracting(ItemError::source).contains("broken.pdf", "secret.docx",
                "invoice.pdf", "bomb.docx", "empty.md");
        assertThat(report.report().errors()).extracting(ItemError::reason).anySatisfy(r -> assertThat(r)
                .contains("secret.docx").contains("encrypted")).anySatisfy(r -> assertThat(r).contains("invoice.pdf")
                .contains("unsupported type")).anySatisfy(r -> assertThat(r).contains("broken.pdf")
                .contains("corrupt"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Swansea lagoon megawatts|tides|page 3|prose",
        "Xinomavro|Harvest plan||table",
        "churn fjord region|review|slide 2|prose",
        "saffron threads|pantry|sheet Pantry|table",
        "mooring tension|harbour.py||code",
        "Marsaxlokk|ports||table",
    })
    void a_phrase_is_found_where_it_is_with_its_location(String query, String title, String location, String kind) {
        SearchHit top = polyrag.search().run(new SearchRequest(query, 3, List.of(), Set.of(Modality.FULLTEXT), null))
                .hits().getFirst();
        assertThat(top.title()).isEqualTo(title);
        assertThat(top.location()).isEqualTo(location == null ? "" : location);
        assertThat(top.kind()).isEqualTo(ChunkKind.parse(kind));
    }

    @Test
    void a_table_chunk_repeats_its_header_and_a_formula_gives_its_value() {
        SearchHit hit = polyrag.search().run(new SearchRequest("saffron", 1, List.of(), Set.of(Modality.FULLTEXT), null))
                .hits().getFirst();
        assertThat(hit.text()).startsWith("Item | Qty | Price | Total").contains("Saffron threads | 2 | 11 | 22");
    }

    @Test
    void a_scanned_image_is_read_by_ocr() {
        org.junit.jupiter.api.Assumptions.assumeTrue(ocr(),
                "Tesseract is not installed here (Debian: apt-get install tesseract-ocr); .ci/run installs it");
        SearchHit hit = polyrag.search().run(new SearchRequest("lighthouse logbook", 1, List.of(),
                Set.of(Modality.FULLTEXT), null)).hits().getFirst();
        assertThat(hit.title()).isEqualTo("logbook");
        assertThat(hit.location()).isEqualTo("image (OCR)");
    }
}
