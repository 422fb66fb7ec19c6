package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** What {@code ask} prints of an answer that came through a running server, as the local path prints it. */
class ThroughServerTest {
    @Test
    void an_answers_warnings_are_printed() {
        var answer = JsonMapper.builder().build().readTree("{\"answer\":\"The levain rests 12 hours [1].\","
                + "\"mode\":\"extractive\",\"note\":null,\"degraded\":[],\"warnings\":[\"2 documents of the knowledge "
                + "base are still being indexed: the answer may miss them\"],\"sources\":[{\"number\":1,\"title\":"
                + "\"Sourdough\",\"uri\":\"file:///s.md\"}]}");
        StringWriter out = new StringWriter();
        ThroughServer.printAnswer(answer, new PrintWriter(out, true));
        assertThat(out.toString()).contains("The levain rests 12 hours [1].")
                .contains("warning: 2 documents of the knowledge base are still being indexed");
    }
}
