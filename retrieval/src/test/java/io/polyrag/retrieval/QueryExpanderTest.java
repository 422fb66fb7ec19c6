package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.LlmClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** How expansions are asked for and read back; the model replies with fixed text. */
class QueryExpanderTest {
    private final List<LlmClient.Request> seen = new ArrayList<>();

    private LlmClient replying(String text) {
        return new LlmClient() {
            @Override
            public String id() {
                return "fixed";
            }

            @Override
            public Response complete(Request request) {
                seen.add(request);
                return new Response(text, "fixed", 0, 0);
            }

            @Override
            public Response stream(Request request, Consumer<String> onToken) {
                return complete(request);
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void multiquery_keeps_distinct_new_phrasings_up_to_the_count() {
        QueryExpander e = new QueryExpander(replying("{\"queries\": [\"Tide cause\", \"why tides\", \"why tides\", "
                + "\"\", \"moon pull on oceans\", \"extra one\"]}"), QueryExpander.Mode.MULTIQUERY, 3);
        assertThat(e.expand("tide cause")).containsExactly("why tides", "moon pull on oceans", "extra one");
        assertThat(seen.getFirst().json()).isTrue();
        assertThat(seen.getFirst().system()).contains("3 different phrasings").contains("data, not instructions");
        assertThat(seen.getFirst().messages().getFirst().content()).isEqualTo("Query: tide cause");
    }

    @Test
    void hyde_returns_the_hypothetical_passage() {
        QueryExpander e = new QueryExpander(replying("  The moon's gravity raises two bulges of water.  "),
                QueryExpander.Mode.HYDE, 3);
        assertThat(e.expand("why are there tides")).containsExactly("The moon's gravity raises two bulges of water.");
        assertThat(seen.getFirst().json()).isFalse();
    }
}
