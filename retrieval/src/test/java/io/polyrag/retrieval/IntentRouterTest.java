package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Answer;
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
import io.polyrag.testing.FixedReplyLlm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The intent router's rules, its use of a model's decision (and of the rules when that is unusable), and the routes. */
class IntentRouterTest {
    @TempDir
    Path dir;

    private JdbcCatalog catalog;
    private HybridSearcher searcher;
    private final AtomicInteger searches = new AtomicInteger();

    @BeforeEach
    void open() {
        catalog = H2CatalogProvider.open(dir);
        publish("levain", List.of("Mix the levain the night before. It needs twelve hours at room temperature.",
                "Then mix the flour and water. Rest the dough for an hour.",
                "Fold the dough four times. Shape it and proof it overnight in the fridge.",
                "Bake at 250 degrees for twenty minutes, then lower the heat."));
        publish("comets", List.of("Comets are icy bodies that orbit the Sun. Their tails point away from the Sun."));
    }

    @AfterEach
    void close() {
        if (searcher != null) {
            searcher.close();
        }
        catalog.close();
    }

    private void publish(String doc, List<String> texts) {
        List<Chunk> chunks = IntStream.range(0, texts.size()).mapToObj(i -> Chunk.builder(doc, 1, i)
                .text(texts.get(i)).headingPath(List.of("H")).offsets(0, 1).tokenCount(3).build()).toList();
        catalog.stage(new DocumentDraft(doc, "kb", "file:///" + doc, "Title " + doc, "text/plain", "h", 1, chunks), 1);
        catalog.publish(new DocumentVersion(doc, 1));
    }

    private AnswerService service(LlmClient llm, String... chunkIds) {
        List<StoreHit> hits = java.util.Arrays.stream(chunkIds)
                .map(id -> new StoreHit(id, id.substring(0, id.indexOf("-v")), 1, 1.0)).toList();
        Retriever fixed = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
            searches.incrementAndGet();
            return hits.subList(0, Math.min(limit, hits.size()));
        });
        searcher = new HybridSearcher(List.of(fixed), catalog, TestRetrievers.options(10));
        return new AnswerService(searcher, catalog, llm, 512);
    }

    private static SearchRequest ask(String q) {
        return new SearchRequest(q, 8, List.of("kb"), java.util.Set.of(), null);
    }

    @Test
    void the_rules_tell_the_kinds_apart() {
        record Case(String question, IntentRouter.Intent intent) {
        }
        List<Case> cases = List.of(
                new Case("hi!", IntentRouter.Intent.CHITCHAT),
                new Case("Thanks a lot", IntentRouter.Intent.CHITCHAT),
                new Case("good morning polyrag", IntentRouter.Intent.CHITCHAT),
                new Case("What can you do about a flat tyre on a long ride?", IntentRouter.Intent.LOOKUP),
                new Case("OK, what temperature?", IntentRouter.Intent.LOOKUP),
                new Case("Thanks, and how long does it rest?", IntentRouter.Intent.LOOKUP),
                new Case("ok cool, that's all for now. have a nice day", IntentRouter.Intent.CHITCHAT),
                new Case("who are you?", IntentRouter.Intent.CHITCHAT),
                new Case("hey, what's up", IntentRouter.Intent.CHITCHAT),
                new Case("hello world program", IntentRouter.Intent.LOOKUP),
                new Case("nice day for baking bread?", IntentRouter.Intent.LOOKUP),
                new Case("tell me a joke", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("What is 17 * 23?", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("Write me a haiku about autumn", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("Summarize the sourdough recipe", IntentRouter.Intent.SUMMARY),
                new Case("what is this document about", IntentRouter.Intent.SUMMARY),
                new Case("Compare comets and asteroids", IntentRouter.Intent.COMPARISON),
                new Case("What's the difference between a levain and a starter?", IntentRouter.Intent.COMPARISON),
                new Case("How long does the levain ferment?", IntentRouter.Intent.LOOKUP),
                new Case("List the steps to shape the dough", IntentRouter.Intent.LIST),
                new Case("What are the main ingredients?", IntentRouter.Intent.LIST),
                new Case("Why do comet tails point away from the Sun?", IntentRouter.Intent.LOOKUP),
                // Documents' questions that merely contain an out-of-scope phrase, or a filler word and one other.
                new Case("What is the time limit for appeals?", IntentRouter.Intent.LOOKUP),
                new Case("What's the date of the next board meeting?", IntentRouter.Intent.LOOKUP),
                new Case("How do I write a cover letter for the internship?", IntentRouter.Intent.LOOKUP),
                new Case("What was the stock price at the IPO?", IntentRouter.Intent.LOOKUP),
                new Case("Can I play music in the quiet room?", IntentRouter.Intent.LOOKUP),
                new Case("Great Depression", IntentRouter.Intent.LOOKUP),
                new Case("perfect competition", IntentRouter.Intent.LOOKUP),
                new Case("what's the weather like today?", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("What time is it?", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("please tell me a joke", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("play some music", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("thanks, great", IntentRouter.Intent.CHITCHAT),
                // Arithmetic only when it is the whole message; translating only when no document part is named.
                new Case("Is the dose 2 times 5 ml a day?", IntentRouter.Intent.LOOKUP),
                new Case("what is 2 times 5", IntentRouter.Intent.OUT_OF_SCOPE),
                new Case("Translate the warranty terms", IntentRouter.Intent.LOOKUP),
                new Case("translate good morning into French", IntentRouter.Intent.OUT_OF_SCOPE));
        for (Case c : cases) {
            IntentRouter.Route r = IntentRouter.offline(c.question());
            assertThat(r.intent()).as(c.question() + " (" + r.reason() + ")").isEqualTo(c.intent());
            assertThat(r.by()).isEqualTo("offline");
        }
        assertThat(IntentRouter.offline("How long does the levain ferment?").reason()).isEqualTo(
                "asks for a duration");
        assertThat(IntentRouter.offline("Give me an overview of all the documents").collection()).isTrue();
        assertThat(IntentRouter.offline("Give me an overview of the sourdough recipe").collection()).isFalse();
        // A collection's name with a topic after it is no overview of the collection (the first ten documents by
        // name, the topic never searched); "what is the policy about X" asks about X, it wants no summary.
        for (String topic : List.of("Summarize the documents about the merger", "Give me an overview of the library "
                + "renovation", "Summarize everything about onboarding", "Summarize everything you know about "
                + "onboarding", "Summarize the documents I have about the merger", "Give an overview of the files in "
                + "the merger folder")) {
            assertThat(IntentRouter.offline(topic).collection()).as(topic).isFalse();
        }
        for (String whole : List.of("What's in my library?", "Summarize all my documents", "what kinds of documents "
                + "do you have", "Give me an overview of the knowledge base.", "Summarize the documents in my library")) {
            assertThat(IntentRouter.offline(whole).collection()).as(whole).isTrue();
        }
        assertThat(IntentRouter.offline("What is the policy about remote work?").intent())
                .isEqualTo(IntentRouter.Intent.LOOKUP);
        assertThat(IntentRouter.offline("What is the policy about?").intent()).isEqualTo(IntentRouter.Intent.SUMMARY);
    }

    @Test
    void small_talk_is_answered_directly_without_searching() {
        AnswerService s = service(null, "levain-v1-0");
        List<String> streamed = new ArrayList<>();
        Answer a = s.answer(ask("hello there"), 1, false, streamed::add, true);
        assertThat(a.mode()).isEqualTo("direct");
        assertThat(a.answer()).isEqualTo(IntentRouter.HELLO).isEqualTo(String.join("", streamed));
        assertThat(a.sources()).isEmpty();
        assertThat(a.route().intent()).isEqualTo("chitchat");
        assertThat(a.route().topK()).isZero();
        assertThat(searches).as("nothing searched").hasValue(0);
        Answer off = s.answer(ask("hello there"), 1, false, t -> { }, false);
        assertThat(off.route()).isNull();
        assertThat(searches).as("without the router it searches as before").hasValue(1);
    }

    @Test
    void a_summary_reads_the_best_document_from_its_start_and_an_overview_names_every_document() {
        AnswerService s = service(null, "levain-v1-2", "comets-v1-0");
        Answer summary = s.answer(ask("Summarize the levain recipe"), 1, false, t -> { }, true);
        assertThat(summary.route().intent()).isEqualTo("summary");
        assertThat(summary.route().scope()).isEqualTo("document");
        assertThat(summary.sources()).hasSize(1);
        assertThat(summary.sources().getFirst().passages()).extracting(p -> p.ordinal()).containsExactly(0, 1, 2, 3);
        // The first sentence of each passage, in reading order.
        assertThat(summary.answer()).isEqualTo("Mix the levain the night before. [1] Then mix the flour and water. [1] "
                + "Fold the dough four times. [1] Bake at 250 degrees for twenty minutes, then lower the heat. [1]");

        Answer overview = s.answer(ask("What's in this knowledge base?"), 1, false, t -> { }, true);
        assertThat(overview.route().scope()).isEqualTo("collection");
        assertThat(overview.sources()).extracting(x -> x.documentId()).containsExactlyInAnyOrder("levain", "comets");
        assertThat(overview.answer().lines()).hasSize(2).allMatch(l -> l.startsWith("- Title "));
        assertThat(summary.warnings()).isEmpty();
        assertThat(overview.warnings()).isEmpty();
    }

    /** A partial read was presented as the whole: the first ten documents, the first passages of a long one. */
    @Test
    void a_summary_of_a_long_document_and_an_overview_of_many_say_what_they_read() {
        List<String> manual = IntStream.range(0, 20).mapToObj(i -> "Section " + i + " of the manual says step " + i
                + " comes next.").toList();
        publish("manual", manual);
        for (int i = 0; i < 10; i++) {
            publish("note" + i, List.of("A short note, number " + i + "."));
        }
        AnswerService s = service(null, "manual-v1-15");
        Answer summary = s.answer(ask("Summarize the manual"), 1, false, t -> { }, true);
        assertThat(summary.sources().getFirst().passages()).extracting(p -> p.ordinal())
                .hasSize(AnswerService.SUMMARY_CHUNKS + 1).endsWith(15);
        assertThat(summary.warnings()).singleElement().asString().contains("'Title manual' is longer than the summary "
                + "reads").contains("the passage the search found and its first passages");
        Answer overview = s.answer(ask("What's in this knowledge base?"), 1, false, t -> { }, true);
        assertThat(overview.sources()).hasSize(AnswerService.OVERVIEW_DOCUMENTS);
        assertThat(overview.warnings()).singleElement().asString().contains("more than 10 documents");
    }

    @Test
    void a_summary_skips_the_reranker_a_lookup_uses() {
        AtomicInteger reranked = new AtomicInteger();
        io.polyrag.core.port.Reranker counting = TestRetrievers.reranker("counting", (query, passages) -> {
            reranked.incrementAndGet();
            return passages.stream().map(p -> 1.0).toList();
        });
        List<StoreHit> hits = List.of(new StoreHit("levain-v1-2", "levain", 1, 1.0));
        searcher = new HybridSearcher(List.of(TestRetrievers.of(Modality.FULLTEXT, (q, scope, limit) -> hits)),
                catalog, TestRetrievers.options(10), counting, null);
        AnswerService s = new AnswerService(searcher, catalog, null, 512);
        s.answer(ask("Summarize the levain recipe"), 1, false, t -> { }, true);
        assertThat(reranked).as("the summary reads its document in order: nothing to rerank").hasValue(0);
        s.answer(ask("How long does the levain rest?"), 1, false, t -> { }, true);
        assertThat(reranked).hasValue(1);
    }

    @Test
    void a_list_searches_wider_and_answers_one_item_per_line() {
        AnswerService s = service(null, "levain-v1-0", "levain-v1-1", "levain-v1-2");
        Answer a = s.answer(ask("List the steps to make the dough"), 0, false, t -> { }, true);
        assertThat(a.route().intent()).isEqualTo("list");
        assertThat(a.route().topK()).isEqualTo(20);
        assertThat(a.answer().lines().count()).isGreaterThan(1);
        assertThat(a.answer().lines()).allMatch(l -> l.startsWith("- ") && l.matches(".*\\[\\d+]$"));
    }

    /** A list widens its search to 20 hits, but never past the server's top-k limit (it was a 400 there). */
    @Test
    void a_list_widens_only_up_to_the_servers_top_k_limit() {
        List<StoreHit> hits = List.of(new StoreHit("levain-v1-0", "levain", 1, 1.0));
        searcher = new HybridSearcher(List.of(TestRetrievers.of(Modality.FULLTEXT, (q, scope, limit) -> hits)),
                catalog, new HybridSearcher.Options(10, 5000, io.polyrag.core.model.FusionMethod.RRF, 60,
                        java.util.Map.of(), Fusion.Normalization.ZSCORE, 0.8, 1000, 10, 30));
        Answer a = new AnswerService(searcher, catalog, null, 512).answer(ask("List the steps to make the dough"), 0,
                false, t -> { }, true);
        assertThat(a.route().intent()).isEqualTo("list");
        assertThat(a.route().topK()).isEqualTo(10);
    }

    @Test
    void a_question_the_search_would_refuse_never_reaches_the_routing_model() {
        FixedReplyLlm model = new FixedReplyLlm("{\"intent\": \"lookup\"}");
        AnswerService s = service(model, "levain-v1-0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.answer(ask("list ".repeat(5000)), 1, false,
                t -> { }, true)).isInstanceOf(io.polyrag.core.InvalidInputException.class);
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void the_models_decision_is_used_and_an_unusable_one_falls_back_to_the_rules() {
        FixedReplyLlm model = new FixedReplyLlm("{\"intent\": \"out_of_scope\", \"reason\": \"asks about sports\", "
                + "\"reply\": \"I only know your documents.\"}");
        IntentRouter.Route r = new IntentRouter(model).route("Who won the match last night?");
        assertThat(r.intent()).isEqualTo(IntentRouter.Intent.OUT_OF_SCOPE);
        assertThat(r.by()).isEqualTo("model");
        assertThat(r.reply()).isEqualTo("I only know your documents.");
        assertThat(model.requests().getFirst().json()).isTrue();
        assertThat(model.requests().getFirst().messages().getFirst().content()).contains("Who won the match");

        for (String garbage : List.of("I'm sorry, I can't help with that.", "{\"intent\": \"poetry\"}", "",
                "{not json")) {
            IntentRouter.Route fallback = new IntentRouter(new FixedReplyLlm(garbage)).route("Summarize the recipe");
            assertThat(fallback.intent()).as(garbage).isEqualTo(IntentRouter.Intent.SUMMARY);
            assertThat(fallback.by()).isEqualTo("offline");
            assertThat(fallback.reason()).contains("decided offline: the language model was asked first");
        }
    }
}
