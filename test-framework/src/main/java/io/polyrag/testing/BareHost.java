package io.polyrag.testing;

import io.polyrag.core.config.Config;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.port.SourceConnector;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A source connector's host with nothing behind it: default settings, no tenant, no confinement, nothing recorded or
 * kept, no links, never stopped. What a connector test needs when the engine plays no part.
 */
public final class BareHost implements SourceConnector.Host {
    public static final BareHost INSTANCE = new BareHost();

    private BareHost() {
    }

    @Override
    public Config config() {
        return Config.load(Map.of(), Map.of());
    }

    @Override
    public String tenant() {
        return "";
    }

    @Override
    public Confinement confinement() {
        return Confinement.NONE;
    }

    @Override
    public Optional<SyncItem> recorded(String item) {
        return Optional.empty();
    }

    @Override
    public Optional<SourceConnector.Original> original(String documentId, long maxBytes) {
        return Optional.empty();
    }

    @Override
    public List<String> links(String url, byte[] html) {
        return List.of();
    }

    @Override
    public boolean stopped() {
        return false;
    }
}
