package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryTermsTest {
    @Test
    void ngrams_skip_stopword_edges() {
        assertThat(EntityGraphRetriever.ngrams("Where did Marie Curie work?", 4))
                .containsExactly("marie", "marie curie", "marie curie work", "curie", "curie work", "work");
        assertThat(EntityGraphRetriever.ngrams("University of Paris", 4))
                .containsExactly("university", "university of paris", "paris");
        assertThat(EntityGraphRetriever.ngrams("?!", 4)).isEmpty();
    }

    /**
     * A name in a script with combining marks (Devanagari's vowel signs), or folded by NFKC, is named by a query
     * writing it: split at its marks, "राम" was letters no seed's key holds, and the leg answered nothing.
     */
    @Test
    void names_with_marks_or_compatibility_forms_are_named_by_the_query() {
        EntityGraphRetriever leg = EntityGraphRetriever.graph(null, 2);
        EntityGraphRetriever.Reads none = new EntityGraphRetriever.Reads() {
            @Override
            public java.util.List<String> ids(java.util.Collection<String> keys) {
                return java.util.List.of();
            }

            @Override
            public java.util.List<String> byLabel(java.util.Collection<String> terms, String namespace, int limit) {
                return java.util.List.of();
            }

            @Override
            public java.util.List<io.polyrag.core.model.EntityHit> entities(java.util.Collection<String> ids) {
                return java.util.List.of();
            }

            @Override
            public java.util.List<io.polyrag.core.model.GraphEdge> edges(java.util.Collection<String> ids,
                    io.polyrag.core.model.SearchScope scope, int limit) {
                return java.util.List.of();
            }

            @Override
            public java.util.List<io.polyrag.core.model.Mention> mentions(java.util.Collection<String> ids,
                    io.polyrag.core.model.SearchScope scope, int limit) {
                return java.util.List.of();
            }
        };
        assertThat(leg.confidence(none, "राम?", java.util.List.of("राम"), "")).containsKey("राम");
        assertThat(leg.confidence(none, "Who founded ＩＢＭ?", java.util.List.of("ibm"), "")).containsKey("ibm");
        assertThat(leg.confidence(none, "Where is the harbour?", java.util.List.of("harbour"), ""))
                .as("a common word is still no name").isEmpty();
    }

    @Test
    void terms_are_content_words() {
        assertThat(EntityGraphRetriever.terms("Who founded the \"Radium\" Institute?}"))
                .containsExactly("founded", "radium", "institute");
    }

    @Test
    void code_fences_and_semicolons_are_stripped_from_model_queries() {
        assertThat(Text2CypherRetriever.strip("```cypher\nMATCH (n) RETURN n;\n```")).isEqualTo("MATCH (n) RETURN n");
        assertThat(Text2CypherRetriever.strip("  MATCH (n) RETURN n ")).isEqualTo("MATCH (n) RETURN n");
    }
}
