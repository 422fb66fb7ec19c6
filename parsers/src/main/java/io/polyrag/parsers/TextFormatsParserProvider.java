package io.polyrag.parsers;

import io.polyrag.core.config.Settings;
import io.polyrag.core.port.Parser;
import io.polyrag.core.spi.ParserProvider;
import io.polyrag.core.spi.ProviderContext;

/** The built-in parser for plain text, Markdown and HTML, named {@code text}. */
public final class TextFormatsParserProvider implements ParserProvider {
    @Override
    public String name() {
        return "text";
    }

    @Override
    public String description() {
        return "plain text, Markdown and HTML";
    }

    @Override
    public Parser open(ProviderContext context) {
        return new TextFormatsParser(context.config().get(Settings.INGEST_MAX_TEXT_MB) * 1024L * 1024L);
    }
}
