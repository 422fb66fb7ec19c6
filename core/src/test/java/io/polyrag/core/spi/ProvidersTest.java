package io.polyrag.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProvidersTest {
    /** Registered in this module's test resources under META-INF/services. */
    public static final class Fake implements ParserProvider {
        @Override
        public String name() {
            return "Fake";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public Parser open(ProviderContext context) {
            return new Parser() {
                @Override
                public ParsedDocument parse(SourceItem item) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Set<String> mediaTypes() {
                    return Set.of();
                }

                @Override
                public boolean acceptsName(String fileName) {
                    return false;
                }
            };
        }
    }

    @Test
    void a_provider_is_found_by_its_name_case_insensitively() {
        assertThat(Providers.find(ParserProvider.class, " FAKE ", Settings.INGEST_PARSER)).isInstanceOf(Fake.class);
    }

    @Test
    void an_unknown_name_fails_listing_the_names_that_exist() {
        assertThatThrownBy(() -> Providers.find(ParserProvider.class, "tika", Settings.INGEST_PARSER))
                .isInstanceOf(ConfigException.class)
                .hasMessage("POLYRAG_INGEST_PARSER='tika' names no parser provider: available are fake");
    }

    @Test
    void a_kind_with_no_provider_on_the_class_path_says_so() {
        assertThatThrownBy(() -> Providers.find(VectorStoreProvider.class, "lucene", Settings.VECTOR_BACKEND))
                .hasMessageContaining("available are none (is the provider's module on the class path?)");
    }
}
