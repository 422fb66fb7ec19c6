package io.polyrag.app;

import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The parser, opened when a file is first read: opening Tika's parsers takes about half a second at start-up (a
 * hundred parser classes and their libraries), which a search, a {@code keys} or a {@code check} never needs.
 */
final class LazyParser implements Parser {
    private final Supplier<Parser> open;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Parser parser;

    LazyParser(Supplier<Parser> open) {
        this.open = open;
    }

    /** Whether it has been opened (for tests: a search opens no parser). */
    boolean opened() {
        return parser != null;
    }

    private Parser parser() {
        Parser p = parser;
        if (p == null) {
            lock.lock(); // not synchronized: a waiting virtual thread would pin its carrier on JDK 21
            try {
                p = parser;
                if (p == null) {
                    p = open.get();
                    parser = p;
                }
            } finally {
                lock.unlock();
            }
        }
        return p;
    }

    @Override
    public ParsedDocument parse(SourceItem item) {
        return parser().parse(item);
    }

    @Override
    public List<String> links(SourceItem item) {
        return parser().links(item);
    }

    @Override
    public Set<String> mediaTypes() {
        return parser().mediaTypes();
    }

    @Override
    public boolean acceptsName(String fileName) {
        return parser().acceptsName(fileName);
    }

    @Override
    public Set<String> extensions() {
        return parser().extensions();
    }

    @Override
    public boolean ocr() {
        return parser().ocr();
    }

    @Override
    public Figures figures(SourceItem item, String mediaType, FigureLimits limits) {
        return parser().figures(item, mediaType, limits);
    }

    @Override
    public boolean hasFigures(String mediaType) {
        return parser().hasFigures(mediaType);
    }
}
