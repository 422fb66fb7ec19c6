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
