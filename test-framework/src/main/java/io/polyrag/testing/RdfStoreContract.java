package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import io.polyrag.core.port.RdfStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The contract every {@link RdfStore} passes, embedded or networked; an implementation's test is a subclass. */
public abstract class RdfStoreContract extends EntityGraphContract<RdfStore> {

    @Test
    void finds_entities_by_words_of_their_labels() {
        RdfStore store = corpus();
        store.ping(); // readiness's one read answers on every backend
        assertThat(store.entityIdsByLabel(List.of("curie"), 10)).containsExactly("marie curie");
        assertThat(store.entityIdsByLabel(List.of("radium", "paris"), 10))
                .containsExactlyInAnyOrder("radium institute", "paris");
        assertThat(store.entityIdsByLabel(List.of(), 10)).isEmpty();
        // A term of several words matches them together, in order, as a label holds them.
        assertThat(store.entityIdsByLabel(List.of("marie curie"), 10)).containsExactly("marie curie");
        assertThat(store.entityIdsByLabel(List.of("curie marie"), 10)).isEmpty();
        assertThat(store.entityIdsByLabel(List.of("institute paris"), 10)).isEmpty();
        assertThat(store.entityIdsByLabel(List.of("radiu"), 10)).isEmpty();
    }

    /**
     * A tenant's many matching labels do not take another's places: the namespace is chosen before the limit (the
     * local tenant's one match was pushed out by 60 of a tenant's, which sort first).
     */
    @Test
    void finds_labels_within_a_namespace_before_the_limit() {
        RdfStore store = corpus();
        List<Entity> many = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            many.add(new Entity("acme/radium sample " + i, "Radium sample " + i, "Product",
                    List.of()));
        }
        store.upsert(List.of(record("t1", "acme-d1", 1, "acme/kb", many, List.of())));
        assertThat(store.entityIdsByLabel(List.of("radium"), "", 10)).containsExactly("radium institute");
        assertThat(store.entityIdsByLabel(List.of("radium"), "acme/", 10)).hasSize(10)
                .allSatisfy(id -> assertThat(id).startsWith("acme/radium sample"));
        assertThat(store.entityIdsByLabel(List.of("radium"), "globex/", 10)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"", "'", "}", "\"} UNION { ?s ?p ?o }", "x\" ) } ; DROP ALL ; #", "\\", "a\nb",
        "\u0000", "?q", "<urn:x>", "${x}"})
    void hostile_terms_are_literals(String term) {
        RdfStore store = corpus();
        assertThatCode(() -> store.entityIdsByLabel(List.of(term), 10)).doesNotThrowAnyException();
        assertThat(store.entityIdsByLabel(List.of(term), 10)).isEmpty();
        assertThat(store.counts()).containsEntry("relations", 2L);
    }

    @Test
    void relations_read_back_as_written() {
        RdfStore store = corpus();
        assertThat(store.relations("d1")).containsExactly(new Relation("Marie Curie", "Person", "works_at",
                "Radium Institute", "Organization", "c1", "d1", 1,
                Map.of("extractor", "test", "evidence", "She worked at the \"Radium\" Institute.")));
        assertThat(store.relations("d3")).isEmpty();
    }

    /** Versions and documents deleted together, in one request each batch: those named go, the others stay whole. */
    @Test
    void deleting_some_versions_and_documents_together_leaves_the_others() {
        RdfStore store = corpus();
        List<Relation> d2 = store.relations("d2");
        store.delete(List.of(new DocumentVersion("d1", 1), new DocumentVersion("d2", 2), new DocumentVersion("d3", 1)));
        assertThat(store.relations("d1")).isEmpty();
        assertThat(store.relations("d2")).as("another version of d2 was named, not this one").isEqualTo(d2);
        store.deleteDocuments(List.of("d2", "no-such-document"));
        assertThat(store.triples()).isZero();
    }

    @Test
    void deleting_everything_leaves_no_statements() {
        RdfStore store = corpus();
        assertThat(store.triples()).isPositive();
        store.delete(List.of(new DocumentVersion("d1", 1), new DocumentVersion("d2", 1), new DocumentVersion("d3", 1)));
        assertThat(store.triples()).isZero();
    }
}
