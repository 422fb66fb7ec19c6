package io.polyrag.core.spi;

import io.polyrag.core.port.LlmClient;

/** Makes an {@link LlmClient} for one wire protocol; only asked when a provider is configured. */
public interface LlmProvider extends NamedProvider {

    LlmClient open(ProviderContext context);
}
