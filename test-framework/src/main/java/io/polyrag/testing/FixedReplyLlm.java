package io.polyrag.testing;

import io.polyrag.core.port.LlmClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A language model that always replies with the same text and records the requests it gets: for testing what code
 * asks a model and how it reads the reply. The wire protocols are tested against loopback servers in their own
 * module.
 */
public final class FixedReplyLlm implements LlmClient {
    private final String reply;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public FixedReplyLlm(String reply) {
        this.reply = reply;
    }

    /** Requests received so far, oldest first. */
    public List<Request> requests() {
        return requests;
    }

    @Override
    public String id() {
        return "fixed";
    }

    @Override
    public Response complete(Request request) {
        requests.add(request);
        return new Response(reply, "fixed", 0, 0);
    }

    @Override
    public Response stream(Request request, Consumer<String> onToken) {
        Response r = complete(request);
        onToken.accept(r.text());
        return r;
    }

    @Override
    public void close() {
    }
}
