package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Extraction;
import io.polyrag.core.model.Fact;
import io.polyrag.core.port.LlmClient;
import io.polyrag.core.port.ResponseCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LlmEntityExtractorTest {
    private static final String REPLY = """
            {"entities": [{"name": "Marie Curie", "type": "Person"}, {"name": "Radium Institute", "type": "Organization"},
                          {"name": "Paris", "type": "City"}],
             "relations": [{"subject": "Marie Curie", "predicate": "Works At", "object": "Radium Institute"},
                           {"subject": "Radium Institute", "predicate": "located_in", "object": "Paris"},
                           {"subject": "", "predicate": "x", "object": "Paris"}]}""";

    /** A model that answers the same text every time and reports 60 tokens per call. */
    static class Model implements LlmClient {
        final AtomicInteger calls = new AtomicInteger();
        final String reply;
        final boolean strict;

        Model(String reply, boolean strict) {
            this.reply = reply;
            this.strict = strict;
        }

        @Override
        public String id() {
            return "test:model";
        }

        @Override
        public boolean strictJson() {
            return strict;
        }

        @Override
        public Response complete(Request request) {
            calls.incrementAndGet();
            assertThat(request.json()).isTrue();
            return new Response(reply, "model", 40, 20);
        }

        @Override
        public Response stream(Request request, Consumer<String> onToken) {
            return complete(request);
        }

        @Override
        public void close() {
        }
    }

    static final class MapCache implements ResponseCache {
        final Map<String, String> map = new ConcurrentHashMap<>();

        @Override
        public Optional<String> response(String key) {
            return Optional.ofNullable(map.get(key));
        }

        @Override
        public void rememberResponse(String key, String response) {
            map.putIfAbsent(key, response);
        }
    }

    @Test
    void dynamic_extraction_keeps_the_models_types_and_normalises_predicates() {
        Model m = new Model(REPLY, true);
        Extraction x = LlmEntityExtractor.create(m, "dynamic", null, new MapCache())
                .extract(List.of("Marie Curie worked at the Radium Institute in Paris."), Long.MAX_VALUE).getFirst();
        assertThat(x.entities()).extracting(Entity::type).containsExactly("Person", "Organization", "City");
        assertThat(x.facts()).extracting(Fact::predicate).containsExactly("works_at", "located_in");
        assertThat(x.facts().getFirst().subjectType()).isEqualTo("Person");
        assertThat(x.tokens()).isEqualTo(60);
    }

    /** A cache that cannot be read or written (the catalog busy or away) costs the cache, not the extraction. */
    @Test
    void a_failing_cache_loses_neither_the_extraction_nor_its_tokens() {
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        ResponseCache broken = new ResponseCache() {
            @Override
            public Optional<String> response(String key) {
                asked.incrementAndGet();
                throw new IllegalStateException("catalog could not read cached responses (simulated)");
            }

            @Override
            public void rememberResponse(String key, String response) {
                throw new IllegalStateException("catalog could not cache a response (simulated)");
            }
        };
        List<Extraction> xs = LlmEntityExtractor.create(new Model(REPLY, true), "dynamic", null, broken)
                .extract(List.of("Marie Curie worked at the Radium Institute in Paris.", "Pierre Curie taught in "
                        + "Paris."), Long.MAX_VALUE);
        assertThat(xs.getFirst().entities()).hasSize(3);
        assertThat(xs.getFirst().tokens()).isEqualTo(60);
        assertThat(asked).as("not asked again in this extraction").hasValue(1);
        // The three-argument extract (an ingest's, with its deadline) asks for one text at a time: the cache rests
        // there too.
        LlmEntityExtractor timed = LlmEntityExtractor.create(new Model(REPLY, true), "dynamic", null, broken);
        asked.set(0);
        timed.extract(List.of("Ada Lovelace wrote notes.", "Charles Babbage built engines.", "Ada met Charles."),
                Long.MAX_VALUE, new io.polyrag.core.port.EntityExtractor.TimeLimits(java.time.Duration.ofSeconds(60),
                        System.nanoTime() + 60_000_000_000L));
        assertThat(asked).hasValue(1);
    }

    /** A year, a numeral or an era mark is no entity, whatever the model wrote (one kept joined every mention). */
    @Test
    void years_numbers_and_era_marks_are_neither_entities_nor_ends_of_facts() {
        Model m = new Model("{\"entities\": [{\"name\": \"Acme\", \"type\": \"Organization\"}, {\"name\": "
                + "\"1998\", \"type\": \"Date\"}, {\"name\": \"280 BC\"}, {\"name\": \"Seven\"}, {\"name\": "
                + "\"Apollo 11\", \"type\": \"Product\"}], \"relations\": [{\"subject\": \"Acme\", \"predicate\": "
                + "\"founded_in\", \"object\": \"1998\"}, {\"subject\": \"Acme\", \"predicate\": \"makes\", "
                + "\"object\": \"Apollo 11\"}]}", true);
        Extraction x = LlmEntityExtractor.create(m, "dynamic", null, new MapCache())
                .extract(List.of("Acme was founded in 1998 and makes the Apollo 11."), Long.MAX_VALUE).getFirst();
        assertThat(x.entities()).extracting(Entity::name).containsExactly("Acme", "Apollo 11");
        assertThat(x.facts()).extracting(Fact::object).containsExactly("Apollo 11");
    }

    @Test
    void unchanged_text_is_answered_from_the_cache() {
        Model m = new Model(REPLY, true);
        MapCache cache = new MapCache();
        LlmEntityExtractor x = LlmEntityExtractor.create(m, "simple", null, cache);
        x.extract(List.of("one text", "another text"), Long.MAX_VALUE);
        List<Extraction> again = x.extract(List.of("one text", "another text", "  "), Long.MAX_VALUE);
        assertThat(m.calls).hasValue(2);
        assertThat(again.get(0).entities()).hasSize(3);
        assertThat(again.get(0).tokens()).isZero();
        assertThat(again.get(0).entities()).extracting(Entity::type).containsOnly("");
        assertThat(again.get(2)).isEqualTo(Extraction.EMPTY);
    }

    /** A reply that is not JSON, or was cut at the allowance, is not kept: the next ingest asks again. */
    @Test
    void a_cut_or_unreadable_reply_is_not_cached() {
        MapCache cache = new MapCache();
        Model prose = new Model("Sorry, I cannot help with that.", true);
        LlmEntityExtractor.create(prose, "simple", null, cache).extract(List.of("one text"), Long.MAX_VALUE);
        LlmEntityExtractor.create(prose, "simple", null, cache).extract(List.of("one text"), Long.MAX_VALUE);
        assertThat(prose.calls).hasValue(2);
        Model cut = new Model(REPLY, true) {
            @Override
            public Response complete(Request request) {
                calls.incrementAndGet();
                return new Response(REPLY.substring(0, REPLY.length() / 2), "model", 40, 800, true);
            }
        };
        LlmEntityExtractor.create(cut, "simple", null, cache).extract(List.of("two text"), Long.MAX_VALUE);
        LlmEntityExtractor.create(cut, "simple", null, cache).extract(List.of("two text"), Long.MAX_VALUE);
        assertThat(cut.calls).hasValue(2);
        assertThat(cache.map).isEmpty();
    }

    @Test
    void extraction_stops_cleanly_when_the_budget_is_spent() {
        Model m = new Model(REPLY, true);
        List<Extraction> x = LlmEntityExtractor.create(m, "dynamic", null, new MapCache())
                .extract(List.of("a", "b", "c", "d"), 100);
        assertThat(m.calls).hasValue(2);
        assertThat(x).extracting(Extraction::budgetStopped).containsExactly(false, false, true, true);
    }

    @Test
    void a_reply_that_is_not_json_gives_nothing_and_does_not_fail() {
        for (String reply : List.of("Sure! Here are the entities: Marie Curie", "[1, 2]", "{\"entities\": 7}",
                "```json\n{\"entities\": [\"Ada\"]}\n```", "{\"entities\": [{\"name\": \"" + "x".repeat(300) + "\"}]}")) {
            Extraction x = LlmEntityExtractor.create(new Model(reply, true), "dynamic", null, new MapCache())
                    .extract(List.of("t"), Long.MAX_VALUE).getFirst();
            assertThat(x.facts()).isEmpty();
            assertThat(x.entities().size()).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void schema_constrained_extraction_drops_what_the_ontology_does_not_allow(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, """
                {"entities": ["Person", "Organization"],
                 "relations": [{"name": "works_at", "from": "Person", "to": "Organization"}]}""");
        LlmEntityExtractor strict = LlmEntityExtractor.create(new Model(REPLY, true), "schema_constrained", schema,
                new MapCache());
        assertThat(strict.strategy()).isEqualTo(LlmEntityExtractor.Strategy.SCHEMA_CONSTRAINED);
        Extraction x = strict.extract(List.of("t"), Long.MAX_VALUE).getFirst();
        assertThat(x.entities()).extracting(Entity::name).containsExactly("Marie Curie", "Radium Institute");
        assertThat(x.facts()).extracting(Fact::predicate).containsExactly("works_at");
        assertThat(LlmEntityExtractor.prompt(LlmEntityExtractor.Strategy.SCHEMA_CONSTRAINED,
                LlmEntityExtractor.Ontology.load(schema))).contains("works_at: Person -> Organization");
    }

    /** An entity refused for its type came back untyped through a relation whose rule takes any type. */
    @Test
    void a_relation_end_the_schema_refused_for_its_type_is_not_let_back() {
        // The built-in vocabulary (no schema file): part_of joins ends of any type.
        String reply = """
                {"entities": [{"name": "Harbour Division", "type": "Organization"}, {"name": "Q3 2024 results", "type": "Date"}],
                 "relations": [{"subject": "Harbour Division", "predicate": "part_of", "object": "Q3 2024 results"},
                               {"subject": "Harbour Division", "predicate": "part_of", "object": "Unlisted Thing"}]}""";
        Extraction x = LlmEntityExtractor.create(new Model(reply, true), "schema_constrained", null, new MapCache())
                .extract(List.of("t"), Long.MAX_VALUE).getFirst();
        assertThat(x.entities()).extracting(Entity::name).containsExactly("Harbour Division");
        assertThat(x.facts()).isEmpty();
    }

    @Test
    void an_ontology_naming_relations_in_another_case_keeps_the_models_facts(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, """
                {"entities": ["Person", "Organization"],
                 "relations": [{"name": "WORKS_AT", "from": "Person", "to": "Organization"}]}""");
        LlmEntityExtractor strict = LlmEntityExtractor.create(new Model(REPLY, true), "schema_constrained", schema,
                new MapCache());
        Extraction x = strict.extract(List.of("t"), Long.MAX_VALUE).getFirst();
        assertThat(x.facts()).extracting(Fact::predicate).containsExactly("works_at");
    }

    @Test
    void a_provider_without_strict_json_falls_back_to_dynamic(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, "{\"entities\": [\"Person\"], \"relations\": []}");
        assertThat(LlmEntityExtractor.create(new Model(REPLY, false), "schema_constrained", schema, new MapCache())
                .strategy()).isEqualTo(LlmEntityExtractor.Strategy.DYNAMIC);
    }

    @Test
    void a_bad_ontology_is_refused_with_every_problem(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, "{\"entities\": [\"Person\", 3], \"relations\": [{\"from\": \"Person\", \"to\": "
                + "\"Planet\"}]}");
        assertThatThrownBy(() -> LlmEntityExtractor.Ontology.load(schema)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(schema.toString()).hasMessageContaining("is not a non-empty string")
                .hasMessageContaining("has no name").hasMessageContaining("'Planet'");
        Files.writeString(schema, "not json");
        assertThatThrownBy(() -> LlmEntityExtractor.Ontology.load(schema)).hasMessageContaining("cannot be read");
    }

    @Test
    void without_an_ontology_file_the_schema_is_the_graphs_own_vocabulary() {
        LlmEntityExtractor strict = LlmEntityExtractor.create(new Model(REPLY, true), "schema_constrained", null,
                new MapCache());
        assertThat(strict.strategy()).isEqualTo(LlmEntityExtractor.Strategy.SCHEMA_CONSTRAINED);
        String prompt = LlmEntityExtractor.prompt(LlmEntityExtractor.Strategy.SCHEMA_CONSTRAINED,
                LlmEntityExtractor.Ontology.vocabulary());
        assertThat(prompt).contains("Person, Organization, Place, Product, Work, Event")
                .contains("founded: Person -> Organization").contains("located_in: any -> Place");
        // The reply's works_at(Person, Organization) is in the vocabulary and kept.
        Extraction x = strict.extract(List.of("t"), Long.MAX_VALUE).getFirst();
        assertThat(x.facts()).extracting(Fact::predicate).contains("works_at");
        assertThat(LlmEntityExtractor.prompt(LlmEntityExtractor.Strategy.DYNAMIC, null))
                .contains("founded (Person -> Organization)").contains("Dates, numbers and quantities are not");
    }

    @Test
    void an_estimate_counts_calls_and_tokens_without_calling() {
        Model m = new Model(REPLY, true);
        var e = LlmEntityExtractor.create(m, "dynamic", null, new MapCache()).estimate(List.of("x".repeat(400), "",
                "y".repeat(800)));
        assertThat(m.calls).hasValue(0);
        assertThat(e.calls()).isEqualTo(2);
        assertThat(e.inputTokens()).isGreaterThan(300);
        assertThat(e.outputTokens()).isEqualTo(2L * LlmEntityExtractor.EXPECTED_OUTPUT_TOKENS);
    }

    /** A model's types in another case are the ontology's ("organization" was dropped, and its relations with it). */
    @Test
    void schema_types_match_whatever_their_case() {
        String reply = "{\"entities\":[{\"name\":\"Acme\",\"type\":\"organization\"},{\"name\":\"Ada\",\"type\":"
                + "\"person\"}],\"relations\":[{\"subject\":\"Ada\",\"predicate\":\"founded\",\"object\":\"Acme\"}]}";
        LlmEntityExtractor strict = LlmEntityExtractor.create(new Model(reply, true), "schema_constrained", null,
                new MapCache());
        Extraction x = strict.extract(List.of("t"), Long.MAX_VALUE).getFirst();
        assertThat(x.entities()).extracting(Entity::type).containsExactlyInAnyOrder("Organization", "Person");
        assertThat(x.facts()).extracting(Fact::predicate).containsExactly("founded");
    }

    /** A reply without usage is counted by estimate, not as nothing: the budget and the daily quota must move. */
    @Test
    void a_reply_without_usage_is_counted_by_estimate() {
        Model silent = new Model(REPLY, true) {
            @Override
            public Response complete(Request request) {
                calls.incrementAndGet();
                return new Response(reply, "model", 0, 0);
            }
        };
        var x = LlmEntityExtractor.create(silent, "dynamic", null, new MapCache()).extract(List.of("a".repeat(400),
                "b".repeat(400)), 150);
        assertThat(x.getFirst().tokens()).isGreaterThan(100);
        assertThat(x.get(1).budgetStopped()).as("the estimate spent the budget").isTrue();
    }

    /** A provider failing on the third text of a batch: the two calls before it were paid for, and say so. */
    @Test
    void a_failure_part_way_through_a_batch_carries_what_the_calls_before_it_spent() {
        Model failing = new Model(REPLY, true) {
            @Override
            public Response complete(Request request) {
                if (calls.incrementAndGet() == 3) {
                    throw new io.polyrag.core.UnavailableException("the model refused the text");
                }
                return new Response(reply, "model", 40, 20);
            }
        };
        assertThatThrownBy(() -> LlmEntityExtractor.create(failing, "dynamic", null, new MapCache()).extract(
                List.of("one", "two", "three", "four"), Long.MAX_VALUE)).isInstanceOfSatisfying(io.polyrag.core.port.EntityExtractor.Failed.class,
                e -> assertThat(e.tokensSpent()).isEqualTo(120));
        // As the ingest calls it: within a batch's deadline, a text at a time.
        failing.calls.set(0);
        assertThatThrownBy(() -> LlmEntityExtractor.create(failing, "dynamic", null, new MapCache()).extract(
                List.of("five", "six", "seven", "eight"), Long.MAX_VALUE, new io.polyrag.core.port.EntityExtractor
                        .TimeLimits(java.time.Duration.ofSeconds(30), System.nanoTime() + 60_000_000_000L)))
                .isInstanceOfSatisfying(io.polyrag.core.port.EntityExtractor.Failed.class, e -> assertThat(e.tokensSpent()).isEqualTo(120));
    }
}
