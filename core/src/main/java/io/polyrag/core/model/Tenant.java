package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.regex.Pattern;

/**
 * Whose data a request reads and writes. An API key belongs to exactly one tenant; with no key configured the
 * server runs in local mode, as {@link #LOCAL}. A tenant's knowledge bases, documents, entities and jobs are stored
 * under its namespace ({@code <id>/}), which no name a client gives can reach: knowledge-base names cannot contain
 * {@code /}.
 *
 * <p>One tenant may take over local mode's data ({@code polyrag keys create TENANT --adopt-local}): its keys then act
 * as the local tenant under that tenant's name ({@link #adopting}), so what was indexed before the first key, and
 * what the command line and {@code serve --watch} index after it, is that tenant's, with no store rewritten.
 */
public final class Tenant {
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    /** The one user of a server with no API keys (local mode, loopback only). */
    public static final Tenant LOCAL = new Tenant("", "");

    private final String id;
    private final String name;

    private Tenant(String id, String name) {
        this.id = id;
        this.name = name;
    }

    /** The tenant {@code id}: 1–40 characters of a-z, 0-9, '_' or '-', starting with a letter or digit. */
    public static Tenant of(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new InvalidInputException("tenant '" + Ids.abbreviate(String.valueOf(id), 60) + "' is invalid: use "
                    + "1-40 characters of a-z, 0-9, '_' or '-', starting with a letter or digit");
        }
        return new Tenant(id, id);
    }

    /**
     * The tenant {@code id} that took over local mode's data: it is the local tenant (empty namespace, the local
     * tenant's rows), named {@code id} in logs.
     */
    public static Tenant adopting(String id) {
        return new Tenant("", of(id).id());
    }

    /** Who this is, for logs and messages: the tenant's id ({@code acme} also when it adopted local mode's data). */
    public String name() {
        return name;
    }

    /** The tenant's id as its rows and names are stored; empty for {@link #LOCAL} and a tenant {@link #adopting} it. */
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
        return name.isEmpty() ? "(local)" : name;
    }
}
