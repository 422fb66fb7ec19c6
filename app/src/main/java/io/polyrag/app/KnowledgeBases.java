package io.polyrag.app;

import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.Tenant;
import java.util.List;

/**
 * A tenant's knowledge bases: list, create (with a description), read (with document and chunk counts), delete
 * (its documents from every store first). Ingesting into a knowledge base that does not exist creates it.
 */
public final class KnowledgeBases {
    private static final int DELETE_PAGE = 500;

    private final Components components;
    private final Tenant tenant;

    KnowledgeBases(Components components, Tenant tenant) {
        this.components = components;
        this.tenant = tenant;
    }

    /** The tenant's knowledge bases, by name, each with its counts. */
    public List<KnowledgeBaseInfo> list() {
        return components.catalog.knowledgeBases(tenant.id()).stream()
                .flatMap(n -> components.catalog.knowledgeBase(n).stream()).map(this::shown).toList();
    }

    public KnowledgeBaseInfo get(String name) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        return components.catalog.knowledgeBase(kb.storageName()).map(this::shown)
                .orElseThrow(() -> notFound(kb));
    }

    /** Creates an empty knowledge base; a name in use is a conflict. */
    public KnowledgeBaseInfo create(String name, String description) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        if (description != null && (description.length() > 1024 || description.chars().anyMatch(
                ch -> Character.isISOControl(ch) && ch != '\n'))) {
            throw new InvalidInputException("description must be at most 1024 characters with no control characters");
        }
        if (!components.catalog.createKnowledgeBase(kb.storageName(), description == null ? "" : description.strip())) {
            throw new ConflictException("knowledge base '" + kb.name() + "' exists already");
        }
        return get(kb.name());
    }

    /** Deletes the knowledge base and every document in it, from the catalog and every store; returns how many. */
    public long delete(String name) {
        KnowledgeBase kb = KnowledgeBase.of(tenant, checked(name));
        if (components.catalog.knowledgeBase(kb.storageName()).isEmpty()) {
            throw notFound(kb);
        }
        long deleted = 0;
        while (true) {
            List<String> ids = components.catalog.documents(kb.asScope(), 0, DELETE_PAGE).stream()
                    .map(DocumentInfo::id).toList();
            if (ids.isEmpty()) {
                break;
            }
            int n = components.pipeline.delete(ids).size();
            if (n == 0) {
                break;
            }
            deleted += n;
        }
        components.catalog.dropKnowledgeBase(kb.storageName());
        return deleted;
    }

    private static String checked(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("a knowledge base name is required");
        }
        return name;
    }

    private KnowledgeBaseInfo shown(KnowledgeBaseInfo k) {
        return new KnowledgeBaseInfo(tenant.show(k.name()), k.description(), k.createdAt(), k.documents(),
                k.chunks());
    }

    private static NotFoundException notFound(KnowledgeBase kb) {
        return new NotFoundException("no knowledge base '" + kb.name() + "'");
    }
}
