package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.rag.content.retriever.ContentRetriever;
import io.polyrag.client.PolyragClient;
import io.polyrag.langchain4j.PolyragContentRetriever;
import io.polyrag.springai.PolyragDocumentRetriever;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/** What an application writes, compiled and run against the published artifacts. */
class ConsumerTest {
    @Test
    void the_client_and_both_retrievers_build_from_the_published_artifacts() throws Exception {
        PolyragClient client = PolyragClient.builder().baseUrl("http://127.0.0.1:8080").apiKey("prk_x").build();
        assertNotNull(client);
        ContentRetriever lc4j = PolyragContentRetriever.builder().client(client).knowledgeBases("handbook").topK(5)
                .build();
        DocumentRetriever spring = PolyragDocumentRetriever.builder().client(client).knowledgeBases("handbook")
                .topK(5).build();
        assertNotNull(lc4j);
        assertNotNull(spring);
        assertEquals(5, PolyragClient.Search.of("q").topK(5) != null ? 5 : 0);
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(
                "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            assertNotNull(in, "the starter brings the auto-configuration");
            assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).contains(
                    "io.polyrag.springai.PolyragAutoConfiguration"));
        }
    }
}
