package io.polyrag.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** polyrag's fused hits as LangChain4j contents, inside an AiServices assistant, against a real polyrag server. */
class PolyragContentRetrieverTest {
    @TempDir
    Path tmp;

    interface Assistant {
        String answer(String question);
    }

    /** A chat model that replies with a fixed sentence and keeps what it was sent. */
    static final class FixedReply implements ChatModel {
        final List<ChatMessage> received = new CopyOnWriteArrayList<>();

        @Override
        public ChatResponse doChat(ChatRequest request) {
            received.addAll(request.messages());
            return ChatResponse.builder().aiMessage(AiMessage.from("Twelve hours.")).build();
        }
    }

    @Test
    void an_assistant_answers_from_the_passages_polyrag_retrieves() {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString())))) {
            // The key first: a server reads whether keys exist when it starts (then every two seconds).
            String key = polyrag.keys().create("acme", "langchain4j").key();
            try (HttpFrontDoor server = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, 1 << 20)) {
                run(server, key);
            }
        }
    }

    private void run(HttpFrontDoor server, String key) {
        {
            var anonymous = PolyragContentRetriever.builder().baseUrl("http://127.0.0.1:" + server.port()).build();
            var refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                    io.polyrag.client.PolyragApiException.class, () -> anonymous.retrieve(Query.from("levain")));
            assertThat(refused.status()).as("keys are on: the tenant's data needs its key").isEqualTo(401);
            var client = io.polyrag.client.PolyragClient.builder().baseUrl("http://127.0.0.1:" + server.port())
                    .apiKey(key).build();
            client.ingestText("After about twelve hours the levain should be bubbly and smell sweet and sour.",
                    "Levain", "note:levain", "recipes");
            client.ingestText("Quokkas live on Rottnest Island.", "Quokka", "note:quokka", "wildlife");
            var retriever = PolyragContentRetriever.builder().baseUrl("http://127.0.0.1:" + server.port())
                    .apiKey(key).knowledgeBases("recipes").topK(3).build();

            List<Content> contents = retriever.retrieve(Query.from("how long does the levain rest"));
            assertThat(contents).isNotEmpty();
            Content top = contents.getFirst();
            assertThat(top.textSegment().text()).contains("twelve hours");
            var meta = top.textSegment().metadata();
            assertThat(meta.getString("title")).isEqualTo("Levain");
            assertThat(meta.getString("uri")).isEqualTo("note:levain");
            assertThat(meta.getString("knowledge_base")).isEqualTo("recipes");
            assertThat(meta.getString("document_id")).isNotBlank();
            assertThat(meta.getInteger("rank_fulltext")).isEqualTo(1);
            assertThat(meta.getInteger("rank_vector")).isEqualTo(1);
            assertThat((Double) top.metadata().get(ContentMetadata.SCORE)).isPositive();
            assertThat(contents).allSatisfy(c -> assertThat(c.textSegment().metadata().getString("knowledge_base"))
                    .isEqualTo("recipes"));
            // A chat message longer than the server takes (a pasted email) is searched cut, not a failed turn.
            assertThat(retriever.retrieve(Query.from("how long does the levain rest " + "and then ".repeat(400))))
                    .isNotEmpty();

            FixedReply model = new FixedReply();
            Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever)
                    .build();
            assertThat(assistant.answer("How long does the levain rest?")).isEqualTo("Twelve hours.");
            String sent = model.received.stream().filter(m -> m instanceof UserMessage).map(m -> ((UserMessage) m)
                    .singleText()).reduce("", String::concat);
            assertThat(sent).as("the question, augmented with polyrag's passage").contains("How long does the levain "
                    + "rest?").contains("After about twelve hours the levain should be bubbly");
            assertThat(sent).doesNotContain("Quokkas");
        }
    }

    /** Every retriever failed: an error, not "nothing relevant" for the model to answer around. */
    @Test
    void a_search_no_retriever_answered_is_an_error() throws Exception {
        com.sun.net.httpserver.HttpServer stub = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", x -> {
            x.getRequestBody().readAllBytes();
            byte[] body = ("{\"query\":\"levain\",\"modalities\":[\"vector\"],\"degraded\":[{\"modality\":"
                    + "\"vector\",\"reason\":\"the vector store is down\"}],\"hits\":[]}").getBytes(
                    java.nio.charset.StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        stub.start();
        try {
            var retriever = PolyragContentRetriever.builder().baseUrl("http://127.0.0.1:" + stub.getAddress()
                    .getPort()).build();
            var failed = org.assertj.core.api.Assertions.catchThrowableOfType(
                    io.polyrag.client.PolyragApiException.class, () -> retriever.retrieve(Query.from("levain")));
            assertThat(failed.status()).isEqualTo(503);
            assertThat(failed.detail()).contains("the vector store is down");
        } finally {
            stub.stop(0);
        }
    }
}
