package io.polyrag.core.port;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.SyncItem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A kind of source polyrag keeps in step with the index: a server folder, a web site, a bucket. A connector checks a
 * source's settings, lists its items with a change token, and reads the ones whose token moved; everything else is
 * the sync engine's, the same for every connector — comparing each item with what the last sync recorded, ingesting
 * what changed through the normal pipeline, deleting what a complete listing no longer finds. Connectors are found
 * by type through {@link io.polyrag.core.spi.SourceConnectorProvider}, one instance per server, used by concurrent
 * syncs of different sources.
 */
public interface SourceConnector extends AutoCloseable {
    /** The {@code type} a registration names. */
    String type();

    /**
     * A source's settings checked and normalised (what is stored and shown), or an
     * {@link io.polyrag.core.InvalidInputException} naming the field ({@code config.NAME}) and the fix.
     */
    Map<String, Object> checked(Map<String, Object> config, Host host);

    /**
     * Lists the source's items, lazily (close it). Throws {@link Unavailable} when the source cannot be listed at all
     * (a folder gone, a site whose robots.txt fails): the sync then changes nothing.
     */
    Listing list(Map<String, Object> config, Host host) throws Unavailable;

    /** Reads an item its listing found without content: what the engine ingests. */
    Content read(Map<String, Object> config, Listed item, Host host) throws IOException;

    /**
     * Whether a sync stopped part-way resumes cheaply — unchanged items are known by their token without reading
     * them — so its job may yield its worker to another tenant's and run on later.
     */
    boolean resumable();

    /** The local folder whose changes the server may watch to sync within seconds; empty: polled on its interval. */
    default Optional<Path> watched(Map<String, Object> config) {
        return Optional.empty();
    }

    /** The settings that are secrets: stored and used, never shown back (a read shows {@link #HIDDEN}). */
    default Set<String> secrets() {
        return Set.of();
    }

    /** What a read of a source shows for each of its secrets. */
    String HIDDEN = "********";

    @Override
    default void close() {
    }

    /**
     * Refuses a setting that {@code keys} does not name, naming the ones that are: the first check of every
     * connector's {@link #checked}.
     *
     * @param what how the message calls one of them ("a filesystem setting")
     */
    static void onlyKeys(Map<String, Object> given, String what, List<String> keys) {
        for (String k : given.keySet()) {
            if (!keys.contains(k)) {
                throw new InvalidInputException("'config." + k + "' is not " + what + ": use " + String.join(", ",
                        keys));
            }
        }
    }

    /** A true-or-false setting, {@code fallback} when it is absent; anything else is refused naming it. */
    static boolean flag(Map<String, Object> given, String key, boolean fallback) {
        if (!(given.getOrDefault(key, fallback) instanceof Boolean b)) {
            throw new InvalidInputException("'config." + key + "' must be true or false");
        }
        return b;
    }

    /** What the server lends a connector for one source: its settings, the tenant's bounds, and what it recorded. */
    interface Host {
        Config config();

        /** The tenant's name; empty for the operator's own sources (local mode). */
        String tenant();

        /** The folders this tenant's sources may read, and those none may (the data directory). */
        Confinement confinement();

        /** What the last sync recorded of an item, if anything. */
        Optional<SyncItem> recorded(String item);

        /** The original kept of a document this source indexed (up to {@code maxBytes}), if it is kept. */
        Optional<Original> original(String documentId, long maxBytes);

        /** The links of an HTML page, as the parser finds them. */
        List<String> links(String url, byte[] html);

        /** Whether the sync was asked to stop (canceled, shutting down): a listing ends early, incomplete. */
        boolean stopped();
    }

    /** The items a listing finds, one at a time, and after the last whether it found every item of the source. */
    interface Listing extends Iterator<Found>, AutoCloseable {
        /** Asked after the last item: only a complete listing lets the engine delete what it did not find. */
        boolean complete();

        /** What the sync should tell its user (a limit reached, a sitemap not read). */
        List<String> warnings();

        @Override
        default void close() {
        }
    }

    /** One thing a listing found. */
    sealed interface Found permits Listed, Unchanged, Gone, Failed {
        /** The item's stable id within the source (a path below the root, a URL, an object key); null: none. */
        String item();
    }

    /**
     * An item and its change token: modification time, size and validator (an ETag; empty when the source has
     * none). The engine reads it only when the token differs from the recorded one — unless {@code content} is given,
     * because finding the item meant reading it (a fetched page); such an item is compared by its bytes' hash.
     */
    record Listed(String item, long modifiedMs, long sizeBytes, String validator, Content content) implements Found {
        public Listed {
            Objects.requireNonNull(item, "item");
            validator = validator == null ? "" : validator;
        }
    }

    /** An item the source says is as recorded (a conditional request answered 304). */
    record Unchanged(String item) implements Found {
    }

    /** An item the source says is gone (404, 410): deleted even when the listing is not complete. */
    record Gone(String item) implements Found {
    }

    /**
     * What could not be listed or read now: an error to report; the item (when there is one) keeps what was recorded,
     * so a complete listing does not take it as deleted.
     */
    record Failed(String item, ItemError error) implements Found {
    }

    /**
     * An item's bytes as the engine ingests them: a local file (ingested from disk, read through the source's
     * confinement when it is opened) or bytes in memory (kept as the document's original), with the SHA-256 of the
     * raw bytes (not of the parsed text, so a parser upgrade changes nothing).
     */
    record Content(String uri, String name, String mediaType, byte[] bytes, Path file, String hash) {
        public Content {
            Objects.requireNonNull(hash, "hash");
            if ((bytes == null) == (file == null)) {
                throw new IllegalArgumentException("content is a file or bytes");
            }
        }

        public static Content file(Path file, String hash) {
            return new Content(file.toUri().toString(), String.valueOf(file.getFileName()), null, null, file, hash);
        }

        public static Content bytes(String uri, String name, String mediaType, byte[] bytes) {
            return new Content(uri, name, mediaType, bytes, null, Ids.sha256Hex(bytes));
        }
    }

    /** A document's kept original: its media type and bytes. */
    record Original(String mediaType, byte[] bytes) {
    }

    /** Nothing of the source could be listed; the message says why and is the sync's error. */
    final class Unavailable extends IOException {
        public Unavailable(String message) {
            super(message);
        }
    }
}
