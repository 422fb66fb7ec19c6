package io.polyrag.springai;

import io.polyrag.client.PolyragClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With {@code polyrag.base-url} set, a {@link PolyragClient} and a {@link PolyragDocumentRetriever} (for a
 * {@code RetrievalAugmentationAdvisor}) as beans; an application's own bean of either type wins. An empty
 * {@code polyrag.base-url} (e.g. {@code ${SERVER_URL:}} with the variable unset) counts as not set.
 */
@AutoConfiguration
@Conditional(PolyragAutoConfiguration.BaseUrlSet.class)
@EnableConfigurationProperties(PolyragProperties.class)
public class PolyragAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    public PolyragClient polyragClient(PolyragProperties p) {
        return PolyragClient.builder().baseUrl(p.baseUrl()).apiKey(p.apiKey()).build();
    }

    /** Only where one client is the one to use: an application with a client per tenant key wires its own. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(PolyragClient.class)
    public PolyragDocumentRetriever polyragDocumentRetriever(PolyragClient client, PolyragProperties p) {
        return PolyragDocumentRetriever.builder().client(client).knowledgeBases(p.knowledgeBases()).topK(p.topK())
                .build();
    }

    /** {@code polyrag.base-url} set to something other than blanks. */
    static final class BaseUrlSet implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String url = context.getEnvironment().getProperty("polyrag.base-url");
            return url != null && !url.isBlank();
        }
    }
}
