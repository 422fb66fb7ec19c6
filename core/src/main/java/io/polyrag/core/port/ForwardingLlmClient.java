package io.polyrag.core.port;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A language model that hands every call to another: the base of decorators (traces, usage counting), which wrap
 * each call in {@link #call} and inherit the rest.
 */
public abstract class ForwardingLlmClient implements LlmClient {
    protected final LlmClient delegate;

    protected ForwardingLlmClient(LlmClient delegate) {
        this.delegate = delegate;
    }

    /** Runs one call of the model ({@code how}: {@code complete} or {@code stream}); by default just runs it. */
    protected Response call(String how, Supplier<Response> body) {
        return body.get();
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public boolean strictJson() {
        return delegate.strictJson();
    }

    @Override
    public Response complete(Request request) {
        return call("complete", () -> delegate.complete(request));
    }

    @Override
    public Response stream(Request request, Consumer<String> onToken) {
        return call("stream", () -> delegate.stream(request, onToken));
    }

    @Override
    public void close() {
        delegate.close();
    }
}
