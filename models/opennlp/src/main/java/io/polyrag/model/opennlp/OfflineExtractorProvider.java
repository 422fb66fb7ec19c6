package io.polyrag.model.opennlp;

import io.polyrag.core.port.EntityExtractor;
import io.polyrag.core.spi.ExtractorProvider;
import io.polyrag.core.spi.ProviderContext;

/** {@code graph.extractor=offline}: proper-noun entities and verb or co-occurrence relations, no key needed. */
public final class OfflineExtractorProvider implements ExtractorProvider {
    @Override
    public String name() {
        return "offline";
    }

    @Override
    public String description() {
        return "Apache OpenNLP part-of-speech entities and relations (offline, English)";
    }

    @Override
    public EntityExtractor open(ProviderContext context) {
        return new OfflineExtractor();
    }
}
