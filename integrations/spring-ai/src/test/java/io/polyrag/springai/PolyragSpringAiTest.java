package io.polyrag.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.client.PolyragClient;
import io.polyrag.core.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** polyrag's fused hits as Spring AI documents, in a RetrievalAugmentationAdvisor, and from the auto-configuration. */
class PolyragSpringAiTest {
    @TempDir
    static Path tmp;

    private static Polyrag polyrag;
    private static HttpFrontDoor server;
    private static String base;
    private static String key;

    @BeforeAll
    static void start() {
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())));
        key = polyrag.keys().create("acme", "spring ai").key();
        server = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, 1 << 20);
        base = "http://127.0.0.1:" + server.port();
        PolyragClient client = PolyragClient.builder().baseUrl(base).apiKey(key).build();
        client.ingestText("After about twelve hours the levain should be bubbly and smell sweet and sour.", "Levain",
                "note:levain", "recipes");
        client.ingestText("Quokkas live on Rottnest Island.", "Quokka", "note:quokka", "wildlife");
    }

    @AfterAll
    static void stop() {
        server.close();
        polyrag.close();
    }

    /** A chat model that replies with a fixed sentence and keeps the prompts it was sent. */
    static final class FixedReply implements ChatModel {
        final List<Prompt> received = new CopyOnWriteArrayList<>();

        @Override
        public ChatResponse call(Prompt prompt) {
            received.add(prompt);
            return new ChatResponse(List.of(new Generation(new AssistantMessage("Twelve hours."))));
        }
    }

    @Test
    void documents_carry_the_hit_and_an_advisor_augments_the_question_with_them() {
        var retriever = PolyragDocumentRetriever.builder().baseUrl(base).apiKey(key).knowledgeBases("recipes")
                .topK(3).build();
        List<Document> docs = retriever.retrieve(new Query("how long does the levain rest"));
        assertThat(docs).isNotEmpty();
        Document top = docs.getFirst();
        assertThat(top.getText()).contains("twelve hours");
        assertThat(top.getScore()).isEqualTo(1.0);
        assertThat(top.getMetadata()).containsEntry("title", "Levain").containsEntry("uri", "note:levain")
                .containsEntry("knowledge_base", "recipes").containsEntry("rank_fulltext", 1).containsKey("document_id");

        FixedReply model = new FixedReply();
        String answer = ChatClient.builder(model).defaultAdvisors(RetrievalAugmentationAdvisor.builder()
                .documentRetriever(retriever).build()).build().prompt().user("How long does the levain rest?").call()
                .content();
        assertThat(answer).isEqualTo("Twelve hours.");
        String sent = model.received.getFirst().getContents();
        assertThat(sent).contains("How long does the levain rest?").contains("After about twelve hours the levain")
                .doesNotContain("Quokkas");
    }

    /**
     * Spring AI's joiner sorts documents by score: a reranked hit keeps its fused score, so scores fall with the
     * rank, the fused one kept as metadata. A query longer than the server takes is searched cut.
     */
    @Test
    void documents_keep_polyrags_order_through_the_joiner_and_a_long_query_is_cut() {
        List<PolyragClient.Hit> hits = List.of(hit(1, 0.012, "reranked first"), hit(2, 0.030, "second"),
                hit(3, 0.030, "third"));
        List<Document> docs = PolyragDocumentRetriever.documents(hits);
        assertThat(docs).extracting(Document::getText).containsExactly("reranked first", "second", "third");
        assertThat(docs.getFirst().getMetadata()).containsEntry("fused_score", 0.012).doesNotContainKey("score");
        Query q = new Query("q");
        List<Document> joined = new org.springframework.ai.rag.retrieval.join.ConcatenationDocumentJoiner().join(
                Map.of(q, List.of(docs)));
        assertThat(joined).extracting(Document::getText).containsExactly("reranked first", "second", "third");
        try (var retriever = PolyragDocumentRetriever.builder().baseUrl(base).apiKey(key).knowledgeBases("recipes")
                .build()) {
            assertThat(retriever.retrieve(new Query("how long does the levain rest " + "and then ".repeat(400))))
                    .isNotEmpty();
        }
    }

    private static PolyragClient.Hit hit(int rank, double score, String text) {
        return new PolyragClient.Hit(rank, score, "d" + rank, "c" + rank, "u", "t", text, "text", List.of(), "",
                "kb", 1, 0, Map.of(), List.of(), null, List.of());
    }

    /** A per-request filter expression is refused, never ignored (ignored, every knowledge base was searched). */
    @Test
    void a_filter_expression_is_refused_not_ignored() {
        var retriever = PolyragDocumentRetriever.builder().baseUrl(base).apiKey(key).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> retriever.retrieve(Query.builder().text("levain")
                .context(Map.of(org.springframework.ai.rag.retrieval.search.VectorStoreDocumentRetriever
                        .FILTER_EXPRESSION, "knowledge_base == 'recipes'")).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("knowledgeBases");
    }

    @Test
    void the_auto_configuration_makes_the_client_and_the_retriever_from_polyrag_properties() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PolyragAutoConfiguration.class))
                .withPropertyValues("polyrag.base-url=" + base, "polyrag.api-key=" + key,
                        "polyrag.knowledge-bases=wildlife", "polyrag.top-k=2")
                .run(context -> {
                    assertThat(context).hasSingleBean(PolyragClient.class).hasSingleBean(PolyragDocumentRetriever.class);
                    List<Document> docs = context.getBean(PolyragDocumentRetriever.class).retrieve(new Query(
                            "where do quokkas live"));
                    assertThat(docs).isNotEmpty().allSatisfy(d -> assertThat(d.getMetadata()).containsEntry(
                            "knowledge_base", "wildlife"));
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PolyragAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(PolyragClient.class));
        // polyrag.base-url=${SERVER_URL:} with the variable unset: no beans, and the application starts.
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PolyragAutoConfiguration.class))
                .withPropertyValues("polyrag.base-url=").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(PolyragClient.class);
                });
        // Two clients of the application's own (one per tenant key): it starts, and wires its own retrievers.
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PolyragAutoConfiguration.class))
                .withPropertyValues("polyrag.base-url=" + base)
                .withBean("acme", PolyragClient.class, () -> PolyragClient.builder().baseUrl(base).build())
                .withBean("globex", PolyragClient.class, () -> PolyragClient.builder().baseUrl(base).build())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(PolyragDocumentRetriever.class);
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PolyragAutoConfiguration.class))
                .withPropertyValues("polyrag.base-url=" + base, "polyrag.top-k=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("polyrag.top-k must be at least 1"));
    }
}
