package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.LlmClient;
import io.polyrag.store.catalog.H2CatalogProvider;
import io.polyrag.store.catalog.JdbcCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnswerServiceTest {
    @TempDir
    Path dir;

    private JdbcCatalog catalog;
    private HybridSearcher searcher;

    @BeforeEach
    void open() {
        catalog = H2CatalogProvider.open(dir);
        publish("guide", List.of("Install the package first.", "Then configure the port in the settings file.",
                "The server listens on port 8080 by default. Change it with the port setting.",
                "Logs go to standard error.", "Upgrades keep the data directory."));
        publish("faq", List.of("Questions about ports are common. The default port is 8080."));
        publish("table", List.of("Setting | Default\nport | 8080\nhost | 127.0.0.1"));
    }

    @AfterEach
    void close() {
        searcher.close();
        catalog.close();
    }

    private void publish(String doc, List<String> texts) {
        List<Chunk> chunks = IntStream.range(0, texts.size()).mapToObj(i -> Chunk.builder(doc, 1, i)
                .kind(texts.get(i).contains(" | ") ? ChunkKind.TABLE : ChunkKind.PROSE).text(texts.get(i))
                .headingPath(List.of("H")).offsets(0, 1).tokenCount(3).build()).toList();
        catalog.stage(new DocumentDraft(doc, "kb", "file:///" + doc, "Title " + doc, "text/plain", "h", 1, chunks), 1);
        catalog.publish(new DocumentVersion(doc, 1));
    }

    private AnswerService service(String... chunkIds) {
        List<StoreHit> hits = java.util.Arrays.stream(chunkIds)
                .map(id -> new StoreHit(id, id.substring(0, id.indexOf("-v")), 1, 1.0)).toList();
        Retriever fixed = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
                return hits;
            });
        searcher = new HybridSearcher(List.of(fixed), catalog, TestRetrievers.options(10));
        return new AnswerService(searcher, catalog, null, 512);
    }

    @Test
    void each_document_keeps_one_number_and_its_hits_are_woven_with_neighbours_in_reading_order() {
        Answer a = service("guide-v1-2", "faq-v1-0", "guide-v1-4").answer(SearchRequest.of("default port", 10), 1);
        assertThat(a.sources()).extracting(AnswerSource::number).containsExactly(1, 2);
        AnswerSource guide = a.sources().getFirst();
        assertThat(guide.documentId()).isEqualTo("guide");
        assertThat(guide.title()).isEqualTo("Title guide");
        assertThat(guide.passages()).extracting(AnswerSource.Passage::ordinal).containsExactly(1, 2, 3, 4);
        assertThat(guide.passages()).extracting(AnswerSource.Passage::hit).containsExactly(false, true, false, true);
        assertThat(a.sources().get(1).passages()).extracting(AnswerSource.Passage::ordinal).containsExactly(0);
    }

    @Test
    void the_extractive_answer_quotes_the_best_matching_sentences_with_their_citations() {
        Answer a = service("guide-v1-2", "faq-v1-0").answer(SearchRequest.of("Which port does the server listen on"
                + " by default?", 10), 1);
        assertThat(a.mode()).isEqualTo("extractive");
        assertThat(a.note()).contains("No language model");
        assertThat(a.answer()).startsWith("The server listens on port 8080 by default. [1]")
                .doesNotContain("Logs go to");
    }

    @Test
    void table_rows_are_quoted_with_their_header() {
        Answer a = service("table-v1-0").answer(SearchRequest.of("default host", 10), 0);
        assertThat(a.answer()).isEqualTo("Setting | Default: host | 127.0.0.1 [1]");
    }

    @Test
    void a_question_sharing_no_word_with_the_sources_quotes_nothing_and_says_why() {
        Answer a = service("faq-v1-0").answer(SearchRequest.of("zebra migration", 10), 0);
        assertThat(a.answer()).isEmpty();
        assertThat(a.note()).isEqualTo(AnswerService.NOT_COVERED);
        // The sources retrieval found are still listed, for a reader to judge.
        assertThat(a.sources()).hasSize(1);
    }

    @Test
    void the_neighbour_window_is_bounded() {
        assertThatThrownBy(() -> service("faq-v1-0").answer(SearchRequest.of("x", 10), 6))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("neighbours must be between 0 and 5");
    }

    @Test
    void when_every_retriever_fails_there_is_nothing_to_answer_from() {
        Retriever broken = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
                throw new IllegalStateException("index unreadable");
            });
        searcher = new HybridSearcher(List.of(broken), catalog, TestRetrievers.options(10));
        assertThatThrownBy(() -> new AnswerService(searcher, catalog, null, 512).answer(SearchRequest.of("x", 5), 1))
                .isInstanceOf(io.polyrag.core.UnavailableException.class)
                .hasMessageContaining("no retriever answered").hasMessageContaining("index unreadable");
    }

    @Test
    void nothing_found_says_so_and_a_model_that_writes_nothing_is_replaced_by_quotes_saying_why() {
        Answer none = service().answer(SearchRequest.of("default port", 10), 0);
        assertThat(none.answer()).isEmpty();
        assertThat(none.note()).isEqualTo(AnswerService.NOTHING_FOUND);
        searcher.close();

        service("guide-v1-2");
        LlmClient silent = new LlmClient() {
            @Override
            public String id() {
                return "test:thinker";
            }

            @Override
            public Response complete(Request request) {
                return new Response("", "thinker", 10, 800);
            }

            @Override
            public Response stream(Request request, Consumer<String> onToken) {
                return complete(request);
            }

            @Override
            public void close() {
            }
        };
        StringBuilder streamed = new StringBuilder();
        Answer a = new AnswerService(searcher, catalog, silent, 512).answer(SearchRequest.of("Which port does the "
                + "server listen on by default?", 10), 0, false, streamed::append);
        assertThat(a.mode()).isEqualTo("extractive");
        assertThat(a.answer()).startsWith("The server listens on port 8080 by default. [1]");
        assertThat(streamed.toString()).isEqualTo(a.answer());
        assertThat(a.note()).startsWith("test:thinker wrote no text");
    }
}
