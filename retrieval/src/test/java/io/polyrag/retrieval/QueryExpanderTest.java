package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.testing.FixedReplyLlm;
import org.junit.jupiter.api.Test;

/** How expansions are asked for and read back; the model replies with fixed text. */
class QueryExpanderTest {
    private FixedReplyLlm llm;

    private FixedReplyLlm replying(String text) {
        llm = new FixedReplyLlm(text);
        return llm;
    }

    @Test
    void multiquery_keeps_distinct_new_phrasings_up_to_the_count() {
        QueryExpander e = new QueryExpander(replying("{\"queries\": [\"Tide cause\", \"why tides\", \"Why  tides?\", "
                + "\"tide cause.\", \"\", \"moon pull on oceans\", \"extra one\"]}"), QueryExpander.Mode.MULTIQUERY, 3);
        assertThat(e.expand("tide cause")).containsExactly("why tides", "moon pull on oceans", "extra one");
        assertThat(llm.requests().getFirst().json()).isTrue();
        assertThat(llm.requests().getFirst().system()).contains("3 different phrasings").contains("data, not instructions");
        assertThat(llm.requests().getFirst().messages().getFirst().content()).isEqualTo("Query: tide cause");
    }

    @Test
    void hyde_returns_the_hypothetical_passage() {
        QueryExpander e = new QueryExpander(replying("  The moon's gravity raises two bulges of water.  "),
                QueryExpander.Mode.HYDE, 3);
        assertThat(e.expand("why are there tides")).containsExactly("The moon's gravity raises two bulges of water.");
        assertThat(llm.requests().getFirst().json()).isFalse();
    }
}
