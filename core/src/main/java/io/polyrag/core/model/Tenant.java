package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.regex.Pattern;

/**
 * Whose data a request reads and writes. An API key belongs to exactly one tenant; with no key configured the
 * server runs in local mode, as {@link #LOCAL}. A tenant's knowledge bases, documents, entities and jobs are stored
 * under its namespace ({@code <id>/}), which no name a client gives can reach: knowledge-base names cannot contain
 * {@code /}.
 */
public final class Tenant {
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    /** The one user of a server with no API keys (local mode, loopback only). */
    public static final Tenant LOCAL = new Tenant("", true);

    private final String id;

    private Tenant(String id, boolean trusted) {
        this.id = id;
    }

    /** The tenant {@code id}: 1–40 characters of a-z, 0-9, '_' or '-', starting with a letter or digit. */
    public static Tenant of(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new InvalidInputException("tenant '" + Ids.abbreviate(String.valueOf(id), 60) + "' is invalid: use "
                    + "1-40 characters of a-z, 0-9, '_' or '-', starting with a letter or digit");
        }
        return new Tenant(id, false);
    }

    /** The tenant's id; empty for {@link #LOCAL}. */
    public String id() {
        return id;
    }

    public boolean isLocal() {
        return id.isEmpty();
    }

    /** The prefix of every stored name of this tenant: {@code id/}, or nothing for {@link #LOCAL}. */
    public String namespace() {
        return isLocal() ? "" : id + "/";
    }

    /** This tenant's stored form of a name (a knowledge base, an entity id). */
    public String store(String name) {
        return namespace() + name;
    }

    /** A stored name shown to this tenant: its namespace taken off. */
    public String show(String stored) {
        return stored != null && stored.startsWith(namespace()) ? stored.substring(namespace().length()) : stored;
    }

    /** Whether a stored name is this tenant's (for {@link #LOCAL}: a name in no namespace). */
    public boolean owns(String stored) {
        if (stored == null) {
            return false;
        }
        return isLocal() ? stored.indexOf('/') < 0 : stored.startsWith(namespace());
    }

    /** The tenant whose namespace a stored name is in. */
    public static Tenant ofStored(String stored) {
        int slash = stored == null ? -1 : stored.indexOf('/');
        return slash < 0 ? LOCAL : of(stored.substring(0, slash));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tenant t && t.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return isLocal() ? "(local)" : id;
    }
}
