package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.api.EntityNeighbours;
import io.polyrag.app.api.PathIngest;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.Vocabulary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the offline extractor makes of the bundled samples (the documents a new user indexes first): every entity it
 * keeps, listed, and none of the classes a graph must not show — numerals, era marks, sentence-opening common words,
 * words of a code block.
 */
class SamplesGraphTest {
    @TempDir
    Path tmp;

    /** Every entity of the samples, with its type. A change to the extractor that changes this list is a decision. */
    static final Map<String, String> EXPECTED = new TreeMap<>(Map.ofEntries(
            Map.entry("Augustin-Jean Fresnel", ""),
            Map.entry("Citadel of Qaitbay", Vocabulary.PLACE),
            Map.entry("European Space Agency", Vocabulary.ORGANIZATION),
            Map.entry("Halley", ""),
            Map.entry("Oort", ""),
            // "the island of Pharos" is read as an alias of the lighthouse named after it, a place either way.
            Map.entry("Pharos of Alexandria", Vocabulary.PLACE),
            Map.entry("Rosetta", Vocabulary.PRODUCT),
            Map.entry("Sun", Vocabulary.PLACE),
            Map.entry("Wonders of the Ancient World", "")));

    /** Words a code block of the samples holds (a Rust function): none may name an entity. */
    static final Set<String> CODE_WORDS = Set.of("fn", "longest", "main", "let", "mut", "names", "first", "string",
            "string from", "ada", "grace", "println", "vec", "len", "str");
    static final Pattern NUMERAL = Pattern.compile("(?i).*\\b(\\d+|one|two|three|four|five|six|seven|eight|nine|ten"
            + "|hundred|thousand|first|second|third|sixth|tenth|fourteenth)\\b.*");
    static final Set<String> ERA_MARKS = Set.of("bc", "ad", "bce", "ce");
    /** Words that open a sentence of the samples in capitals and are common words there. */
    static final Set<String> SENTENCE_OPENERS = Set.of("comets", "far", "when", "short", "long", "in", "lighthouses",
            "many", "the", "estimates", "a", "earthquakes", "before", "they", "rock", "it", "lenses", "sourdough",
            "feed", "mix", "after", "bake", "every", "at", "references", "because", "programs", "ownership", "keepers",
            "order", "first", "third", "sixth", "dough", "levain", "baking", "bread", "water", "salt", "home",
            "recipes", "about");

    @Test
    void the_samples_graph_holds_named_things_only() throws Exception {
        Path samples = Path.of("..", "samples").toAbsolutePath().normalize();
        assertThat(Files.isDirectory(samples)).as("the samples folder at " + samples).isTrue();
        // Everything in the folder is indexed by `polyrag serve samples`: a README about the samples would be answered
        // from as if it were one of them.
        assertThat(samples.resolve("README.md")).as("the samples folder holds sample documents only").doesNotExist();
        try (Polyrag polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("graph.enabled", "true",
                "rdf.enabled", "true")))) {
            var report = polyrag.ingest().paths(PathIngest.of(List.of(samples), null), io.polyrag.core.port.ProgressListener.NONE);
            assertThat(report.report().failed()).isZero();
            Map<String, EntityHit> entities = new TreeMap<>();
            // Every entity's name holds a letter or a digit: asking for each finds them all.
            for (char c : "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray()) {
                polyrag.graph().find(String.valueOf(c), 1000).forEach(h -> entities.put(h.entity().name(), h));
            }
            Map<String, String> found = new TreeMap<>();
            entities.forEach((name, h) -> found.put(name, h.entity().type()));
            assertThat(found).isEqualTo(EXPECTED);
            for (String name : found.keySet()) {
                String key = name.toLowerCase(Locale.ROOT);
                assertThat(key).as("a numeral").doesNotMatch(NUMERAL);
                assertThat(key.split("[^\\p{L}\\d]+")).as("an era mark").doesNotContainAnyElementsOf(ERA_MARKS);
                assertThat(key).as("a sentence-opening word").isNotIn(SENTENCE_OPENERS);
                assertThat(key).as("a word of a code block").isNotIn(CODE_WORDS);
                assertThat(name).as("code").doesNotContain("::", "(", ")", "_", "\"");
            }
            // Relations are named by their predicate; "related_to" is the last resort, not the rule.
            List<String> predicates = new ArrayList<>();
            for (EntityHit h : entities.values()) {
                EntityNeighbours n = polyrag.graph().neighbours(h.entity().id(), 100);
                n.neighbours().stream().filter(r -> r.direction().equals("out")).forEach(r -> predicates.add(
                        r.predicate()));
            }
            // "the European Space Agency's Rosetta spacecraft": an organisation's product is its own.
            assertThat(predicates).contains(Vocabulary.OWNS);
            assertThat(predicates.stream().filter(Vocabulary.RELATED_TO::equals).count())
                    .isLessThanOrEqualTo(predicates.size() / 2);
        }
    }

    /** The README's own question, answered offline over the samples as a new user asks it. */
    @Test
    void the_readme_question_is_answered_offline_by_the_sentence_that_answers_it() {
        Path samples = Path.of("..", "samples").toAbsolutePath().normalize();
        try (Polyrag polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("answers"), Map.of()))) {
            polyrag.ingest().paths(PathIngest.of(List.of(samples), null), io.polyrag.core.port.ProgressListener.NONE);
            String answer = polyrag.search().answer(io.polyrag.core.model.SearchRequest.of(
                    "how long does the levain ferment?", 5), null).answer();
            assertThat(answer).contains("After about twelve hours it should be bubbly")
                    .as("the starter's weeks answer another question").doesNotContain("one to two weeks");
        }
    }
}
