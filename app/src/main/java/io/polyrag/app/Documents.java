package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Tenant;
import java.util.List;

/** The indexed documents: list them, delete them (from the catalog and every store). */
public final class Documents {
    private final Components components;
    private final Tenant tenant;

    Documents(Components components, Tenant tenant) {
        this.components = components;
        this.tenant = tenant;
    }

    /** A page of visible documents, by uri; {@code knowledgeBase} null for every knowledge base of the tenant. */
    public List<DocumentInfo> list(KnowledgeBase knowledgeBase, int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, " + Limits.MAX_PAGE + "], got "
                    + offset + " and " + limit);
        }
        return components.catalog.documents(Scope.of(components.catalog, tenant, knowledgeBase), offset, limit)
                .stream().map(d -> Shown.of(tenant, d)).toList();
    }

    /**
     * Deletes documents from the catalog and every store; returns how many were visible. Ids of another tenant's
     * documents are not found, like ids that never existed.
     */
    public int delete(List<String> documentIds) {
        List<String> own = documentIds.stream().filter(id -> id != null && components.catalog.document(id)
                .filter(d -> tenant.owns(d.knowledgeBase())).isPresent()).toList();
        return own.isEmpty() ? 0 : components.pipeline.delete(own).size();
    }
}
