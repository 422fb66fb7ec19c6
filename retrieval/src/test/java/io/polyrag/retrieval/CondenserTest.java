package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.port.LlmClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The next question's retrieval query: the model's condensed one, or the offline rewrite when it fails or strays. */
class CondenserTest {
    private static final List<String> HISTORY = List.of("How long does the levain ferment?");

    /** A model that answers each request with {@code reply} and keeps what it was asked. */
    private static final class Model implements LlmClient {
        final List<Request> asked = new ArrayList<>();
        final Function<Request, String> reply;

        Model(Function<Request, String> reply) {
            this.reply = reply;
        }

        @Override
        public String id() {
            return "test:model";
        }

        @Override
        public Response complete(Request request) {
            asked.add(request);
            return new Response(reply.apply(request), "model", 10, 5);
        }

        @Override
        public Response stream(Request request, java.util.function.Consumer<String> onToken) {
            return complete(request);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void the_models_query_is_used_and_it_was_shown_the_earlier_questions() {
        Model m = new Model(r -> "Query: \"levain fermentation temperature\"\nbecause the user asked…");
        Condenser.Rewrite r = new Condenser(m).rewrite(HISTORY, "And at what temperature?");
        assertThat(r).isEqualTo(new Condenser.Rewrite("levain fermentation temperature", "llm", null));
        assertThat(m.asked).singleElement().satisfies(q -> {
            assertThat(q.system()).isEqualTo(Condenser.SYSTEM);
            assertThat(q.messages().getFirst().content()).contains("1. How long does the levain ferment?")
                    .contains("Last question: And at what temperature?");
            assertThat(q.temperature()).isZero();
        });
    }

    @Test
    void a_failing_or_straying_model_falls_back_to_the_offline_rewrite_and_says_why() {
        String offline = FollowUp.rewrite(HISTORY, "And at what temperature?");
        Condenser.Rewrite failed = new Condenser(new Model(r -> {
            throw new IllegalStateException("openai: HTTP 500");
        })).rewrite(HISTORY, "And at what temperature?");
        assertThat(failed.query()).isEqualTo(offline).contains("levain");
        assertThat(failed.by()).isEqualTo("offline");
        assertThat(failed.problem()).contains("HTTP 500").contains("offline rewrite was used");
        Condenser.Rewrite empty = new Condenser(new Model(r -> "  \n ")).rewrite(HISTORY, "And at what temperature?");
        assertThat(empty.query()).isEqualTo(offline);
        assertThat(empty.problem()).contains("was empty");
        Condenser.Rewrite rambling = new Condenser(new Model(r -> "x".repeat(2000))).rewrite(HISTORY, "And when?");
        assertThat(rambling.by()).isEqualTo("offline");
        assertThat(rambling.problem()).contains("2000 characters long");
    }

    @Test
    void a_first_question_is_searched_as_it_is_without_asking_the_model() {
        Model m = new Model(r -> "never");
        assertThat(new Condenser(m).rewrite(List.of(), "How long does the levain ferment?"))
                .isEqualTo(new Condenser.Rewrite("How long does the levain ferment?", "none", null));
        assertThat(new Condenser(null).rewrite(List.of(" "), "Why?").by()).isEqualTo("none");
        assertThat(m.asked).isEmpty();
        assertThat(new Condenser(null).rewrite(HISTORY, "And at what temperature?").by()).isEqualTo("offline");
    }
}
