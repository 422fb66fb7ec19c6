package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A knowledge base of a tenant, its name checked once where it enters: 1–64 characters of a-z, 0-9, '.', '_' or
 * '-', starting with a letter or digit. A request that names none means the tenant's {@code default}. Stores and
 * the catalog hold {@link #storageName()}: the name in the tenant's namespace.
 *
 * @param tenant whose knowledge base it is
 * @param name the name the tenant uses
 */
public record KnowledgeBase(Tenant tenant, String name) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    /** The name used when a request names none. */
    public static final String DEFAULT_NAME = "default";

    /** The local tenant's default knowledge base. */
    public static final KnowledgeBase DEFAULT = new KnowledgeBase(Tenant.LOCAL, DEFAULT_NAME);

    public KnowledgeBase {
        if (tenant == null) {
            throw new IllegalArgumentException("a knowledge base needs its tenant");
        }
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInputException("knowledge base name '" + Ids.abbreviate(String.valueOf(name), 80)
                    + "' is invalid: use 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit");
        }
    }

    /** The local tenant's knowledge base {@code name}; null or blank means {@link #DEFAULT}. */
    public static KnowledgeBase of(String name) {
        return of(Tenant.LOCAL, name);
    }

    /** {@code tenant}'s knowledge base {@code name}; null or blank means its default one. */
    public static KnowledgeBase of(Tenant tenant, String name) {
        return new KnowledgeBase(tenant, name == null || name.isBlank() ? DEFAULT_NAME : name);
    }

    /** The knowledge base a stored name denotes (its tenant from the namespace). */
    public static KnowledgeBase ofStored(String stored) {
        Tenant t = Tenant.ofStored(stored);
        return new KnowledgeBase(t, t.show(stored));
    }

    /** The name stores and the catalog hold: the name in the tenant's namespace. */
    public String storageName() {
        return tenant.store(name);
    }

    /**
     * The local tenant's named knowledge bases, checked, blanks left out; none named means every knowledge base
     * (for the local tools: evaluation, benchmarks, tests).
     */
    public static SearchScope scope(Collection<String> names) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : names == null ? Set.<String>of() : names) {
            if (n != null && !n.isBlank()) {
                out.add(new KnowledgeBase(Tenant.LOCAL, n).name());
            }
        }
        return out.isEmpty() ? SearchScope.ALL : new SearchScope(out);
    }

    /** One knowledge base, or every one when {@code name} is null or blank. */
    public static SearchScope scope(String name) {
        return scope(name == null ? Set.of() : Set.of(name));
    }

    public SearchScope asScope() {
        return new SearchScope(Set.of(storageName()));
    }

    @Override
    public String toString() {
        return storageName();
    }
}
