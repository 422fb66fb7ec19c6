package io.polyrag.springai;

import io.polyrag.client.PolyragClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * With {@code polyrag.base-url} set, a {@link PolyragClient} and a {@link PolyragDocumentRetriever} (for a
 * {@code RetrievalAugmentationAdvisor}) as beans; an application's own bean of either type wins.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "polyrag", name = "base-url")
@EnableConfigurationProperties(PolyragProperties.class)
public class PolyragAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    public PolyragClient polyragClient(PolyragProperties p) {
        return PolyragClient.builder().baseUrl(p.baseUrl()).apiKey(p.apiKey()).build();
    }

    @Bean
    @ConditionalOnMissingBean
    public PolyragDocumentRetriever polyragDocumentRetriever(PolyragClient client, PolyragProperties p) {
        return PolyragDocumentRetriever.builder().client(client).knowledgeBases(p.knowledgeBases()).topK(p.topK())
                .build();
    }
}
