package io.polyrag.core.spi;

import io.polyrag.core.port.Parser;

/** Makes the {@link Parser} that handles every supported format. */
public interface ParserProvider extends NamedProvider {

    Parser open(ProviderContext context);
}
