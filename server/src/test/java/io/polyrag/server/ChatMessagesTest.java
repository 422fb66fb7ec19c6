package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/** The OpenAI-compatible route's messages: as many as /v1/query takes, and no more (all were kept for the answer). */
class ChatMessagesTest {
    @Test
    void more_messages_than_a_query_takes_are_refused_naming_the_limit() {
        ArrayNode many = JsonMapper.builder().build().createArrayNode();
        for (int i = 0; i <= SearchRoutes.MAX_MESSAGES; i++) {
            many.addObject().put("role", "user").put("content", "a");
        }
        assertThatThrownBy(() -> ChatRoutes.userMessages(many)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most " + SearchRoutes.MAX_MESSAGES);
        many.remove(0);
        assertThat(ChatRoutes.userMessages(many)).hasSize(SearchRoutes.MAX_MESSAGES);
    }
}
