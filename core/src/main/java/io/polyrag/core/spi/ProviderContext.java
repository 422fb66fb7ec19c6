package io.polyrag.core.spi;

import io.polyrag.core.config.Config;
import java.nio.file.Path;

/**
 * What a provider gets to build its component.
 *
 * @param config the effective configuration
 * @param dataDir the data directory, existing and locked by this process; embedded backends keep their files in a
 *     sub-directory named after themselves
 */
public record ProviderContext(Config config, Path dataDir) {
}
