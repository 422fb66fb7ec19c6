package io.polyrag.app;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.port.SourceConnector.Original;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.SourceConnectorProvider;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The source connectors on the class path, one per type ({@code filesystem}, {@code web}, {@code s3}, …), opened
 * once per server; and the {@link SourceConnector.Host} each is lent while it serves one tenant's source.
 */
final class SourceConnectors implements AutoCloseable {
    private final Map<String, SourceConnector> byType = new TreeMap<>();
    private final Map<String, String> descriptions = new TreeMap<>();

    SourceConnectors(ProviderContext context) {
        for (var e : Providers.available(SourceConnectorProvider.class).entrySet()) {
            if (e.getValue().size() > 1) {
                throw new ConfigException(e.getValue().size() + " source connectors claim the type '" + e.getKey()
                        + "': " + e.getValue().stream().map(p -> p.getClass().getName()).toList() + "; remove one "
                        + "from the class path");
            }
            byType.put(e.getKey(), e.getValue().getFirst().open(context));
            descriptions.put(e.getKey(), e.getValue().getFirst().description());
        }
    }

    Optional<SourceConnector> get(String type) {
        return Optional.ofNullable(type == null ? null : byType.get(type));
    }

    Set<String> types() {
        return byType.keySet();
    }

    /** Each type with what it reads: {@code filesystem (a folder on the server, watched live), web (…)}. */
    String described() {
        return String.join(", ", descriptions.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                .toList());
    }

    /**
     * What a connector may use for one source of {@code tenant}: the configuration, the tenant's folders (read again
     * at every call, so an operator who narrows them narrows what registered sources read from then on), the item
     * state its source recorded, the originals it kept and the parser's links.
     */
    static SourceConnector.Host host(Components components, Tenant tenant, String sourceId, BooleanSupplier stopped) {
        return new SourceConnector.Host() {
            @Override
            public Config config() {
                return components.config;
            }

            @Override
            public String tenant() {
                return tenant.name();
            }

            @Override
            public Confinement confinement() {
                return Sources.confinement(components, tenant);
            }

            @Override
            public Optional<SyncItem> recorded(String item) {
                return sourceId == null ? Optional.empty() : Optional.ofNullable(components.catalog.sourceStore().sourceItems(
                        tenant.id(), sourceId, List.of(item)).get(item));
            }

            @Override
            public Optional<Original> original(String documentId, long maxBytes) {
                Optional<BlobStore.Blob> blob = components.blobs.get(documentId);
                if (blob.isEmpty()) {
                    return Optional.empty();
                }
                try (InputStream in = blob.get().content()) {
                    return Optional.of(new Original(blob.get().mediaType(), in.readNBytes((int) Math.min(maxBytes,
                            Integer.MAX_VALUE - 8))));
                } catch (IOException e) {
                    return Optional.empty();
                }
            }

            @Override
            public List<String> links(String url, byte[] html) {
                try {
                    return components.parser.links(new SourceItem(url, "page.html", html, "text/html"));
                } catch (RuntimeException e) {
                    return List.of();
                }
            }

            @Override
            public boolean stopped() {
                return stopped.getAsBoolean();
            }
        };
    }

    @Override
    public void close() {
        for (SourceConnector c : byType.values()) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // closing: nothing to tell
            }
        }
    }
}
