package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.port.KeyStore;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** A key checked while the catalog fails: a 503 that names no address, database or user to whoever sent it. */
class KeysOutageTest {
    @Test
    void a_catalog_failure_while_a_key_is_checked_says_nothing_of_the_catalog() {
        KeyStore failing = (KeyStore) Proxy.newProxyInstance(KeyStore.class.getClassLoader(),
                new Class<?>[] {KeyStore.class}, (proxy, method, args) -> {
                    throw new StoreException("catalog (catalog jdbc:postgresql://secret-host:5432/db?user=polyrag) "
                            + "could not read an API key: connection refused");
                });
        Keys keys = new Keys(failing, () -> null, t -> false, false);
        String wellFormed = Keys.PREFIX + "0123456789abcdef" + "A".repeat(43);
        assertThatThrownBy(() -> keys.authenticate(wellFormed)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("API keys cannot be checked now").hasMessageNotContaining("secret-host")
                .hasMessageNotContaining("jdbc");
    }
}
