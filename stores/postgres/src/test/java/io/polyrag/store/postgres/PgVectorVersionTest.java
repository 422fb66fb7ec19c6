package io.polyrag.store.postgres;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import org.junit.jupiter.api.Test;

/** pgvector before 0.8 is refused at open, naming its version: its searches failed after each connection's first. */
class PgVectorVersionTest {

    @Test
    void pgvector_before_0_8_is_refused_naming_its_version() {
        for (String old : new String[] {"0.5.1", "0.6.0", "0.7.4"}) {
            assertThatThrownBy(() -> PostgresProviders.Vector.requireIterativeScans(old))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("pgvector " + old)
                    .hasMessageContaining("0.8");
        }
        for (String ok : new String[] {"0.8.0", "0.8.1", "0.10.2", "1.0", null}) {
            assertThatCode(() -> PostgresProviders.Vector.requireIterativeScans(ok)).doesNotThrowAnyException();
        }
    }
}
