package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import io.polyrag.client.PolyragClient;
import io.polyrag.langchain4j.PolyragContentRetriever;
import io.polyrag.springai.PolyragDocumentRetriever;
import java.io.InputStream;
import java.net.InetSocketAddress;
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
        // A search through each retriever against a stub server, its answer parsed by whatever Jackson this build
        // resolved (a field left out is its type's default, as an older server leaves out newer fields).
        HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/v1/search", x -> {
            byte[] body = ("{\"query\":\"q\",\"modalities\":[\"fulltext\"],\"degraded\":[],\"warnings\":[],"
                    + "\"hits\":[{\"rank\":1,\"score\":0.5,\"document_id\":\"d\",\"chunk_id\":\"c\","
                    + "\"title\":\"Leave\",\"text\":\"Leave is booked a week ahead.\",\"knowledge_base\":"
                    + "\"handbook\"}]}").getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        stub.start();
        try (PolyragClient local = PolyragClient.builder().baseUrl("http://127.0.0.1:" + stub.getAddress().getPort())
                .apiKey("prk_x").build()) {
            assertEquals("Leave is booked a week ahead.", PolyragContentRetriever.builder().client(local).build()
                    .retrieve(dev.langchain4j.rag.query.Query.from("leave")).getFirst().textSegment().text());
            assertEquals("Leave", PolyragDocumentRetriever.builder().client(local).build().retrieve(
                    new org.springframework.ai.rag.Query("leave")).getFirst().getMetadata().get("title"));
        } finally {
            stub.stop(0);
        }
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(
                "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            assertNotNull(in, "the starter brings the auto-configuration");
            assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).contains(
                    "io.polyrag.springai.PolyragAutoConfiguration"));
        }
    }
}
